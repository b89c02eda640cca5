// merge-change-request: merge a change request the policy allows, judged again before merging.
import { changeRequestJobKind } from '../change-request-job-kind.js';

export const mergeChangeRequestKind = changeRequestJobKind('merge-change-request', 'merge');
