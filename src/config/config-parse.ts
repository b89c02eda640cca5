// How the configuration is checked: once, at start. zod compiles an object schema into a parser of
// its own on that schema's first parse (worth it for the job payloads and the service's answers,
// parsed thousands of times), which for the configuration's schemas would be compiled, run once and
// thrown away: 4 ms and the garbage of it before /healthz. Its messages are the same either way.
export const CONFIG_PARSE = { reportInput: true, jitless: true } as const;
