// Regenerate docs/commands.md and completions/* from the built command manifest (run after build).
import { writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const bin = `${root}bin/docsctl.js`;
mkdirSync(`${root}completions`, { recursive: true });
for (const [shell, file] of [
  ['bash', 'docsctl.bash'],
  ['zsh', '_docsctl'],
  ['fish', 'docsctl.fish'],
]) {
  writeFileSync(`${root}completions/${file}`, execFileSync(process.execPath, [bin, 'completion', shell]));
}
writeFileSync(`${root}docs/commands.md`, execFileSync(process.execPath, [bin, '__docs']));
console.log('wrote completions/ and docs/commands.md');
