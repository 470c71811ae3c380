/**
 * The Prompter every command asks through: @inquirer/prompts, loaded only when a prompt is
 * actually shown (keeps start-up fast). What is asked and how answers are checked is in
 * prompt.ts; tests inject their own Prompter.
 */

export interface Prompter {
  input(message: string, options?: { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  select<T extends string>(message: string, choices: { name: string; value: T; description?: string }[]): Promise<T>;
  checkbox<T extends string>(message: string, choices: { name: string; value: T }[]): Promise<T[]>;
}

export function makePrompter(): Prompter {
  const lib = () => import('@inquirer/prompts');
  return {
    input: async (message, options) =>
      (await lib()).input({
        message,
        ...(options?.default !== undefined ? { default: options.default } : {}),
        ...(options?.validate ? { validate: options.validate } : {}),
      }),
    confirm: async (message, defaultValue = false) => (await lib()).confirm({ message, default: defaultValue }),
    select: async (message, choices) => (await lib()).select({ message, choices, pageSize: 15 }),
    checkbox: async (message, choices) => (await lib()).checkbox({ message, choices }),
  };
}
