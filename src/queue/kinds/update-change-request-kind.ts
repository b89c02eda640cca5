// update-change-request: bring an outdated change request up to date with the main content.
import { jobId } from '../job-id.js';
import { defineJobKind } from '../job-kind.js';
import { changeRequestJobPayload, ONCE_DONE_FORGET } from './change-request-job-payload.js';

export const updateChangeRequestKind = defineJobKind({
  name: 'update-change-request',
  queue: 'maintain',
  payload: changeRequestJobPayload,
  id: (payload) => jobId('update', payload.space, payload.changeRequest, payload.revision),
  retention: ONCE_DONE_FORGET,
});
