// merge-change-request: merge a change request the policy allows, judged again before merging.
import { jobId } from '../job-id.js';
import { defineJobKind } from '../job-kind.js';
import { changeRequestJobPayload, ONCE_DONE_FORGET } from './change-request-job-payload.js';

export const mergeChangeRequestKind = defineJobKind({
  name: 'merge-change-request',
  queue: 'maintain',
  payload: changeRequestJobPayload,
  id: (payload) => jobId('merge', payload.space, payload.changeRequest, payload.revision),
  retention: ONCE_DONE_FORGET,
});
