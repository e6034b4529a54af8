// Served from a file by the toolkit itself (no handler for the policy to wrap): a warning names it once.
export default defineMcpResource({
  name: 'notes',
  file: 'notes/missing.md',
});
