// docs/reference/cli.md, written from the program's own definitions (cli-program.ts): every command
// with its arguments and flags, their defaults and choices. `npm run docs:reference` writes it.
import type { Command } from 'commander';

export function cliReference(program: Command): string {
  const lines = [
    '# Command line reference',
    '',
    '<!-- Generated from src/cli/cli-program.ts by `npm run docs:reference`; do not edit by hand. -->',
    '',
    `${program.description()} \`docsync <command> --help\` prints the same for one command.`,
    '',
  ];
  const visit = (command: Command, prefix: string): void => {
    const name = `${prefix} ${command.name()}`;
    if (command.commands.length > 0 && command.options.length === 0) {
      lines.push(`## ${name}`, '', `${command.description()}.`, '');
      for (const sub of command.commands) visit(sub, name);
      return;
    }
    lines.push(
      `## ${name}`,
      '',
      sentence(command.description()),
      '',
      '```',
      `${name} ${command.usage()}`,
      '```',
      '',
    );
    const args = command.registeredArguments;
    if (args.length > 0) {
      lines.push('| Argument | Description |', '| --- | --- |');
      for (const arg of args) {
        const written = arg.required ? `<${arg.name()}>` : `[${arg.name()}]`;
        lines.push(`| \`${written}\` | ${cell(sentence(arg.description))} |`);
      }
      lines.push('');
    }
    if (command.options.length > 0) {
      lines.push('| Flag | Description | Default |', '| --- | --- | --- |');
      for (const option of command.options) {
        const choices = option.argChoices === undefined ? '' : ` One of: ${option.argChoices.join(', ')}.`;
        const required = option.mandatory ? ' Required.' : '';
        const fallback = defaultText(option.defaultValue);
        lines.push(
          `| \`${option.flags}\` | ${cell(sentence(option.description) + choices + required)} | ${fallback} |`,
        );
      }
      lines.push('');
    }
  };
  for (const command of program.commands) visit(command, 'docsync');
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A description as the program writes it, ending in a full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function defaultText(value: unknown): string {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '';
  return `\`${String(value)}\``;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
