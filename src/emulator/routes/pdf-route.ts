// The address a change request's PDF export gives: a small, valid PDF listing its subject and the
// titles of its pages (the local service does not typeset the content itself).
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../emulator-context.js';
import { notFound } from '../emulator-http-error.js';
import { requireRevision } from '../revisions.js';
import { flattenPages } from '../stored-content.js';

export function registerPdfRoute(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: { cr: string } }>('/_emulator/pdf/:cr', async (request, reply) => {
    const cr = ctx.state.changeRequests[request.params.cr];
    if (cr === undefined) throw notFound(`change request ${request.params.cr}`);
    const titles = flattenPages(requireRevision(ctx, cr.revision).pages).map((page) => page.title);
    return reply.type('application/pdf').send(textPdf([`#${cr.number} ${cr.subject}`, '', ...titles]));
  });
}

/** A one-page PDF 1.4 with lines of Latin-1 text in Helvetica. */
export function textPdf(lines: readonly string[]): Buffer {
  const pdfText = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
  const body = lines
    .slice(0, 45)
    .map((line, i) => `BT /F1 12 Tf 50 ${790 - i * 16} Td (${pdfText(line)}) Tj ET`)
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
