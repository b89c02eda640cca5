// update-change-request: bring an outdated change request up to date with the main content.
import { changeRequestJobKind } from '../change-request-job-kind.js';

export const updateChangeRequestKind = changeRequestJobKind('update-change-request', 'update');
