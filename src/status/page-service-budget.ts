// The status page's line on the shared budget of the service (service.rateLimit): how much of it
// every docsync on the Redis used in the last window, and how many calls waited for it.
import { formatDuration } from './format-time.js';
import { html, SafeHtml } from './html.js';
import { styled } from './page-markup.js';
import type { ServiceBudgetStatus } from './service-budget-status.js';

/** One line of the page: "37 of 120 requests in the last 1m, 4 calls waited". */
export function serviceBudgetLine(budget: ServiceBudgetStatus | { error: string } | undefined): SafeHtml {
  if (budget === undefined) return new SafeHtml('');
  if ('error' in budget)
    return html`<p>Service budget: ${styled('warn', `could not be read (${budget.error})`)}</p>`;
  const full = budget.taken >= budget.requests;
  return html`<p>Service budget: ${styled(full ? 'warn' : 'ok', `${budget.taken} of ${budget.requests}`)}
    requests in the last ${formatDuration(budget.perMs)}, shared by every docsync on this Redis${
      budget.waits === 0
        ? ''
        : html`; ${budget.waits} call${budget.waits === 1 ? '' : 's'} waited for the budget`
    }.</p>`;
}
