// The final stage of the Dockerfile as far as running it matters: its working folder, environment,
// entry point, default command and the packages its RUN lines install. Tests run the image's command
// as a local process from it, so a changed entry point changes what they run.
import { readFile } from 'node:fs/promises';

export interface DockerfileStage {
  from: string;
  workdir: string;
  env: Record<string, string>;
  entrypoint: string[];
  cmd: string[];
  /** Every RUN line of the stage, continuation lines joined. */
  runs: string[];
}

export async function readDockerfile(file: string): Promise<DockerfileStage> {
  const lines = (await readFile(file, 'utf8'))
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  let stage: DockerfileStage | undefined;
  for (const line of lines) {
    const [instruction = '', ...rest] = line.split(/\s+/);
    const argument = line.slice(instruction.length).trim();
    switch (instruction.toUpperCase()) {
      case 'FROM':
        stage = { from: rest[0] ?? '', workdir: '/', env: {}, entrypoint: [], cmd: [], runs: [] };
        break;
      case 'WORKDIR':
        if (stage) stage.workdir = argument;
        break;
      case 'ENV':
        if (stage) for (const [name, value] of argument.split(/\s+/).map(pair)) stage.env[name] = value;
        break;
      case 'ENTRYPOINT':
        if (stage) stage.entrypoint = execForm(argument, line);
        break;
      case 'CMD':
        if (stage) stage.cmd = execForm(argument, line);
        break;
      case 'RUN':
        stage?.runs.push(argument);
        break;
    }
  }
  if (stage === undefined) throw new Error(`${file} has no FROM`);
  return stage;
}

function pair(text: string): [string, string] {
  const equals = text.indexOf('=');
  return [text.slice(0, equals), text.slice(equals + 1)];
}

/** `["node", "x.js"]`: the shell form would hide the signals from the program, so only this one is read. */
function execForm(argument: string, line: string): string[] {
  const parsed: unknown = JSON.parse(argument);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string'))
    throw new Error(`not an exec form: ${line}`);
  return parsed;
}
