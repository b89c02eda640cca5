// What an import did, as the job's result, `docsync once`'s report and the tests read it.
import type { ContentWarning } from '../content/content-warning.js';
import type { ContentPreview } from '../preview/content-preview.js';

export interface ImportReport {
  result: 'imported' | 'unchanged' | 'superseded' | 'paused' | 'deferred' | 'dry-run';
  /** A deferred import's cause: an export still to run, or a working copy to pull first. */
  waitingFor?: 'export' | 'pull';
  sha?: string;
  changeRequest?: { id: string; number: number; url?: string };
  revision?: string;
  importedResources?: number;
  totalResources?: number;
  /** What the import read past in the folder (see ContentWarning); absent when there was nothing. */
  warnings?: ContentWarning[];
  /** A dry run's pages added, changed and removed, against the change request or the live content. */
  preview?: ContentPreview;
}
