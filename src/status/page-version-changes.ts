// The "Last changes" cell of a spec on the status page: the counts of its last version's changes,
// then each kind's operations, listed when few and folded in a <details> past PAGE_CHANGES_OPEN,
// so that 454 operations changed through a component are all there without filling the page. Pure.
import type { VersionChanges } from '../state/version-changes-schema.js';
import { html, type SafeHtml } from './html.js';
import { styled } from './page-markup.js';
import { type ChangeGroup, changeSummary, notKept, versionChangeGroups } from './version-change-groups.js';

/** Operations of one kind listed open; past this, the kind is folded. */
export const PAGE_CHANGES_OPEN = 5;

export function versionChangesCell(changes: VersionChanges): SafeHtml {
  const groups = versionChangeGroups(changes);
  return html`${changeSummary(groups)}${groups.map(groupMarkup)}`;
}

function groupMarkup(group: ChangeGroup): SafeHtml {
  const label = group.label === 'breaking' ? styled('bad', group.label) : group.label;
  const more = notKept(group);
  const items = html`<ul class="changes">${group.lines.map((line) => html`<li>${line}</li>`)}${
    more === undefined ? '' : html`<li>${more}</li>`
  }</ul>`;
  if (group.count <= PAGE_CHANGES_OPEN) return html`<div>${label}:${items}</div>`;
  return html`<details><summary>${label}: ${group.count}</summary>${items}</details>`;
}
