// Translation settings of an organization: list, create, get, replace (PUT), delete. Members read
// them; admins change them. Besides the interface's `title`, a body may give `languages` (the
// language codes of the public document), kept as given.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredOrg } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderTranslationSettings } from '../render/render-translation-settings.js';
import { requireNamedOrg } from '../require-named-org.js';
import type { StoredTranslationSettings } from '../stored-org-settings.js';

// The document's TranslationLanguage enumeration.
const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

const settingsBody = z.strictObject({
  title: z.string().min(1).max(100),
  languages: z.array(z.enum(LANGUAGES)).optional(),
});
const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });

type Params = { o: string; translationSettingsId: string };

export function registerTranslationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const requireSettings = (org: StoredOrg, id: string): StoredTranslationSettings => {
    const settings = ctx.state.translationSettings[id];
    if (settings === undefined || settings.orgId !== org.id) throw notFound(`translation settings ${id}`);
    return settings;
  };
  const readBody = (body: unknown) => {
    const parsed = parseInput(settingsBody, body, 'body');
    const { languages } = parsed;
    if (languages !== undefined && new Set(languages).size !== languages.length)
      throw badRequest('invalid body: languages: a language is given twice');
    return { title: parsed.title, languages };
  };

  app.get<{ Params: Params }>('/v1/orgs/:o/translations', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'listing translation settings');
    const all = Object.values(ctx.state.translationSettings).filter((settings) => settings.orgId === org.id);
    return pageOf(all, parseInput(listQuery, request.query, 'query'), (settings) =>
      renderTranslationSettings(ctx, caller, settings),
    );
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/translations', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'creating translation settings');
    const body = readBody(request.body);
    const now = ctx.now().toISOString();
    const settings: StoredTranslationSettings = {
      id: newId('trs_'),
      seq: nextSeq(ctx.state),
      orgId: org.id,
      title: body.title,
      languages: body.languages ?? [],
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.translationSettings[settings.id] = settings;
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/orgs/${org.id}/translations/${settings.id}`)
      .send(renderTranslationSettings(ctx, caller, settings));
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/translations/:translationSettingsId', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'reading translation settings');
    return renderTranslationSettings(ctx, caller, requireSettings(org, request.params.translationSettingsId));
  });

  app.put<{ Params: Params }>('/v1/orgs/:o/translations/:translationSettingsId', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'changing translation settings');
    const settings = requireSettings(org, request.params.translationSettingsId);
    const body = readBody(request.body);
    settings.title = body.title;
    // The interface's body is the title alone: languages not given stay as they are.
    if (body.languages !== undefined) settings.languages = body.languages;
    settings.updatedAt = ctx.now().toISOString();
    ctx.changed();
    return renderTranslationSettings(ctx, caller, settings);
  });

  app.delete<{ Params: Params }>(
    '/v1/orgs/:o/translations/:translationSettingsId',
    async (request, reply) => {
      const { org } = requireNamedOrg(request, 'admin', 'deleting translation settings');
      delete ctx.state.translationSettings[requireSettings(org, request.params.translationSettingsId).id];
      ctx.changed();
      return reply.code(205).send();
    },
  );
}
