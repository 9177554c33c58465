/**
 * Renders the option table as `--help` text and as the Markdown table of docs/OPERATIONS.md, so
 * that both always list exactly the options the parser accepts.
 * @module
 */
import { OPTIONS } from './options.ts';
import type { OptionSpec } from './options.ts';

function shownDefault(option: OptionSpec): string {
  if (option.shownDefault !== undefined) return option.shownDefault;
  if (option.default === undefined) return '(none)';
  if (option.default === '') return "''";
  if (Array.isArray(option.default)) return option.default.length === 0 ? '(none)' : option.default.join(',');
  return String(option.default);
}

function valueHint(option: OptionSpec): string {
  return option.type === 'boolean' ? '' : ` <${option.type === 'hash' ? 'hex' : 'value'}>`;
}

/** Returns the `--help` text. */
export function renderHelp(): string {
  const lines = ['Usage: l2node [flags]', '', 'Flags override environment variables, which override defaults.', ''];
  for (const option of OPTIONS) {
    lines.push(`  ${option.flag}${valueHint(option)}`);
    lines.push(`      ${option.description}`);
    lines.push(`      env: ${option.env ?? '(none)'}   default: ${shownDefault(option)}`);
  }
  lines.push('  --help, -h', '      Print this help and exit.', '');
  return lines.join('\n');
}

/** Returns the Markdown table of all options, as embedded in docs/OPERATIONS.md. */
export function renderOptionsMarkdown(): string {
  const rows = OPTIONS.map(
    (o) =>
      `| \`${o.flag}${valueHint(o)}\` | ${o.env ? `\`${o.env}\`` : ''} | \`${shownDefault(o)}\` | ${o.description.replaceAll('|', '\\|')} |`,
  );
  return ['| Flag | Environment variable | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}
