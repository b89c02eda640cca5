// The answer of a PDF export: where the generated document can be downloaded.
import { z } from 'zod';

export const pdfResultSchema = z.looseObject({ url: z.string() });

export type PdfResult = z.output<typeof pdfResultSchema>;
