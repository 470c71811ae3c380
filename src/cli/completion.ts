/**
 * Shell completion (`coursebook completion bash|zsh|fish`). Each script asks the program
 * itself what fits (`coursebook __complete WORD... CURRENT`, as cobra-based tools like gh
 * and kubectl do), so commands, flags and, on a local store, course ids are always those of
 * the installed version. Answers are `value<TAB>description` lines, filtered by CURRENT.
 */
import { existsSync } from 'node:fs';
import { resolveBackend } from './backend.js';
import type { CommandDef, GlobalOptions, OptionDef } from './command.js';
import { configPath, configSource, readConfig } from './config.js';
import { commandOptions, GLOBAL_OPTIONS, optionShape } from './global-options.js';
import type { Io } from './io.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export interface Candidate {
  value: string;
  description?: string;
}

/** A node of the command tree: a group (with children) or a command (with its definition). */
interface Node {
  children: Map<string, Node>;
  /** Old names of children (`blocks add`): followed when typed, never offered. */
  aliases: Map<string, Node>;
  def?: CommandDef;
  description?: string;
}

/**
 * The tree of `defs` under the top-level words in `topLevel` order (the words whose module
 * was not loaded are there with their description only, as `coursebook --help` lists them).
 */
export function commandTree(
  defs: CommandDef[],
  groupDescriptions: Record<string, string>,
  topLevel: readonly { word: string; description: string }[] = [],
): Node {
  const root: Node = { children: new Map(), aliases: new Map() };
  for (const { word, description } of topLevel) root.children.set(word, { children: new Map(), aliases: new Map(), description });
  for (const def of defs) {
    let node = root;
    const words = def.name.split(' ');
    words.forEach((word, i) => {
      let child = node.children.get(word);
      if (!child) {
        const path = words.slice(0, i + 1).join(' ');
        child = { children: new Map(), aliases: new Map(), ...(groupDescriptions[path] ? { description: groupDescriptions[path] } : {}) };
        node.children.set(word, child);
      }
      if (i === words.length - 1) for (const alias of def.aliases ?? []) node.aliases.set(alias, child);
      node = child;
    });
    node.def = def;
    node.description = def.description;
  }
  return root;
}

/** Where the words lead: the command node reached, its options, the positional words after it, and a pending option value. */
interface Position {
  node: Node;
  positionals: string[];
  globals: GlobalOptions;
  /** The option whose value is being typed, when the previous word takes one. */
  awaitingValue?: OptionDef;
}

const shapes = (options: OptionDef[]) => options.map((o) => ({ option: o, ...optionShape(o.flags) }));

function walk(root: Node, words: string[]): Position {
  let node = root;
  const positionals: string[] = [];
  const globals: Record<string, unknown> = {};
  const globalShapes = shapes(GLOBAL_OPTIONS);
  let awaitingValue: OptionDef | undefined;
  let pendingKey: string | undefined;
  for (const word of words) {
    if (awaitingValue) {
      if (pendingKey) globals[pendingKey] = word;
      awaitingValue = undefined;
      pendingKey = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const [name, inline] = word.split('=', 2) as [string, string?];
      const found = [...globalShapes, ...shapes(node.def ? commandOptions(node.def) : [])].find((s) => s.names.includes(name));
      const isGlobal = found !== undefined && globalShapes.includes(found);
      const key = found?.names
        .find((n) => n.startsWith('--'))
        ?.replace(/^--(no-)?/, '')
        .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      if (found?.takesValue && inline === undefined) {
        awaitingValue = found.option;
        pendingKey = isGlobal ? key : undefined;
      } else if (isGlobal && key) globals[key] = inline ?? true;
      continue;
    }
    const child = positionals.length === 0 ? (node.children.get(word) ?? node.aliases.get(word)) : undefined;
    if (child) node = child;
    else positionals.push(word);
  }
  return { node, positionals, globals: globals as GlobalOptions, ...(awaitingValue ? { awaitingValue } : {}) };
}

/** Course ids on a local store that exists (completion never creates a store); none for a remote one. */
async function localCourseIds(globals: GlobalOptions, io: Io): Promise<Candidate[]> {
  // A broken config file fails completion quietly (program.ts), and its warnings are not printed into the line.
  const backend = await resolveBackend(
    globals,
    io.env,
    configSource(configPath(io.env), () => {}),
  );
  if (backend.kind !== 'local' || backend.memory || !existsSync(backend.db)) return [];
  const { openLocalClient } = await import('./local.js');
  const local = await openLocalClient({
    db: backend.db,
    isDefault: backend.isDefault,
    as: backend.as,
    asFrom: backend.asFrom,
    persistActor: false,
    clock: io.clock,
    ids: io.ids(),
    useLiteFetch: io.useLiteFetch,
    note: () => {},
  });
  try {
    const courses = (await local.client.request<{ id: string; title: string }[]>('GET', '/courses')).data;
    return courses.map((c) => ({ value: c.id, description: c.title }));
  } finally {
    local.close();
  }
}

const namesCourse = (text: string) => /courseId/.test(text);

/** The candidates for the last word of `words` (the one being typed; '' for a new word). */
export async function complete(root: Node, words: string[], io: Io): Promise<Candidate[]> {
  const current = words.length === 0 ? '' : words[words.length - 1]!;
  const position = walk(root, words.slice(0, -1));
  const { node } = position;
  let candidates: Candidate[] = [];
  if (position.awaitingValue) {
    const flags = position.awaitingValue.flags;
    if (namesCourse(flags)) candidates = await localCourseIds(position.globals, io);
    else if (flags.startsWith('--profile'))
      candidates = Object.keys((await readConfig(configPath(io.env), () => {})).profiles).map((value) => ({ value, description: 'profile' }));
  } else if (current.startsWith('-')) {
    for (const o of [...(node.def ? commandOptions(node.def) : []), ...GLOBAL_OPTIONS, { flags: '--help', description: 'show help' }]) {
      for (const name of optionShape(o.flags).names.filter((n) => n.startsWith('--'))) candidates.push({ value: name, description: o.description });
    }
  } else if (!node.def) {
    candidates = [...node.children.entries()].map(([value, child]) => ({ value, ...(child.description ? { description: child.description } : {}) }));
  } else {
    const arg = node.def.args?.[position.positionals.length];
    if (arg && namesCourse(arg.name)) candidates = await localCourseIds(position.globals, io);
    else if (node.def.name === 'completion' && position.positionals.length === 0) candidates = SHELLS.map((value) => ({ value }));
  }
  return candidates.filter((c) => c.value.startsWith(current));
}

export function completionLines(candidates: Candidate[]): string {
  return candidates.map((c) => (c.description ? `${c.value}\t${c.description.replace(/\s+/g, ' ')}` : c.value)).join('\n') + (candidates.length ? '\n' : '');
}

const BASH = `# coursebook completion for bash.
# Load it now:      source <(coursebook completion bash)
# Or for every shell: coursebook completion bash > ~/.local/share/bash-completion/completions/coursebook
_coursebook_complete() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do
    [[ -n $line ]] && COMPREPLY+=("\${line%%$'\\t'*}")
  done < <(coursebook __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o default -F _coursebook_complete coursebook
`;

const ZSH = `#compdef coursebook
# coursebook completion for zsh.
# Load it now:      source <(coursebook completion zsh)
# Or for every shell: coursebook completion zsh > "\${fpath[1]}/_coursebook"
_coursebook() {
  local -a values shown
  local line
  for line in "\${(@f)$(coursebook __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -z $line ]] && continue
    values+=("\${line%%$'\\t'*}")
    if [[ $line == *$'\\t'* ]]; then shown+=("\${line%%$'\\t'*}  -- \${line#*$'\\t'}"); else shown+=("$line"); fi
  done
  if (( \${#values} )); then
    compadd -l -d shown -a values
  else
    _files
  fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _coursebook "$@"
else
  compdef _coursebook coursebook
fi
`;

const FISH = `# coursebook completion for fish.
# Load it now:      coursebook completion fish | source
# Or for every shell: coursebook completion fish > ~/.config/fish/completions/coursebook.fish
function __coursebook_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out (coursebook __complete $words[2..-1] 2>/dev/null)
    if test (count $out) -eq 0
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out
    end
end
complete -c coursebook -f -a '(__coursebook_complete)'
`;

export const completionScript = (shell: Shell): string => ({ bash: BASH, zsh: ZSH, fish: FISH })[shell];
