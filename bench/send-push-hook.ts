// A GitHub push webhook for `sha` on `remote`, signed with `secret` as docsync's /hooks/git checks
// it: what the latency benchmarks send to ask for an import at once. Returns the HTTP status.
import { createHmac } from 'node:crypto';

export async function sendPushHook(
  address: string,
  remote: string,
  sha: string,
  secret: string,
): Promise<number> {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: sha, repository: { clone_url: remote } });
  const answer = await fetch(`${address}/hooks/git`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
  await answer.arrayBuffer();
  return answer.status;
}
