// What docsync reads of a revision's pages and files, kept when a reader asks for the content only
// (`contentOnly`): the export, the dry-run preview and the link checks read a page's id, title,
// kind, slug, path, markdown, git file and link address, and a file's name, type, address, size
// and git file. Each part is checked whole by its schema as it arrives; what else the service sends
// of it (its layout, dates, addresses in the app, members of its own) is then dropped. A page the
// service sends whole holds about twice what these members hold, and a revision of 100,000 pages is
// all in memory at once while an export plans it.
import type { RevisionFile } from './schemas/revision-file-schema.js';
import type { RevisionPage } from './schemas/revision-page-schema.js';

/** `page` with only the members docsync reads; its child pages are given as they are. */
export function pageContent(page: RevisionPage): RevisionPage {
  // One shape for every page, members absent as undefined: the objects share one hidden class.
  return {
    id: page.id,
    title: page.title,
    type: page.type,
    slug: page.slug,
    path: page.path,
    markdown: page.markdown,
    git: page.git === undefined ? undefined : { oid: page.git.oid, path: page.git.path },
    target: page.target,
    href: page.href,
    pages: page.pages,
  };
}

/** `file` with only the members docsync reads. */
export function fileContent(file: RevisionFile): RevisionFile {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: file.downloadURL,
    size: file.size,
    git: file.git === undefined ? undefined : { oid: file.git.oid, path: file.git.path },
  };
}
