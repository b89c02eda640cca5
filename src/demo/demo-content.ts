// What the demo repository starts with: a small docs folder whose links all resolve (so the demo's
// merge policy, which refuses broken links, lets it through) and an OpenAPI document next to it.

export const DEMO_DOCS_DIR = 'docs';
export const DEMO_SPEC_PATH = 'openapi.yaml';
/** The page the demo suggests editing. */
export const DEMO_EDIT_PAGE = `${DEMO_DOCS_DIR}/getting-started.md`;

export const DEMO_FILES: Readonly<Record<string, string>> = {
  [`${DEMO_DOCS_DIR}/README.md`]: `# Welcome to the demo docs

These pages live in a git repository that docsync keeps in sync with a space of the local
documentation service.

- [Getting started](getting-started.md): edit this page and watch the change arrive.
- [The Pets API](pets-api.md): a page about the OpenAPI document next to this folder.
`,
  [DEMO_EDIT_PAGE]: `# Getting started

Save a change to this file: docsync imports the folder into a change request within seconds, the
demo reviewer approves it, docsync checks its links and merges it.

Back to the [welcome page](README.md).
`,
  [`${DEMO_DOCS_DIR}/pets-api.md`]: `# The Pets API

The repository's \`openapi.yaml\` is uploaded to the service as the \`pets\` specification; a new
version is made whenever the file changes.

See also [Getting started](getting-started.md).
`,
  [DEMO_SPEC_PATH]: `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      summary: List the pets
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
  /pets/{petId}:
    get:
      operationId: getPet
      summary: One pet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
        '404': { description: No such pet }
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: string }
        name: { type: string }
`,
};
