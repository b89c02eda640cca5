// Where the queue dashboard (bull-board) is served.
export const DASHBOARD_PATH = '/ui';
