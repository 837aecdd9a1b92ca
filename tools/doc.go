// Package tools holds troupe's tool contract and the built-in tools.
//
// A tool call is generated text asking to change the world, so it is treated as a proposal
// under a contract rather than a function call: Registry.Execute runs the fixed lifecycle
// (parse, repair, schema-validate, path policy, state requirement, checks such as the
// permission Gate, execute, bound the result) and every failure along it becomes a Result the
// model can act on, never a panic and never a silent side effect.
//
// File truth lives in a FileTracker (Env.Files): reads record baselines, writes to existing
// files need a baseline that still matches the disk, and Recheck finds external changes before
// each model call. A bash call that is nothing but a plain read of workspace files records the
// read_file it stands for, because models trained on Codex read with the shell: cat f and
// nl -ba f as a whole read; head, tail, sed -n 'A,Bp' f and Codex's numbered
// nl -ba f | sed -n 'A,Bp' as a partial one (bash_reads.go). The permission Policy decides
// allow/ask/deny from the mode and the configured patterns; a Gate turns it into a lifecycle
// Check that asks a human. Outputs over their budget can be kept whole in an ArtifactStore
// (Env.Artifacts, ArtifactOverflow) and paged with read_artifact.
//
// The built-in tools are read_file, write_file, edit_file, list_dir, glob, grep and bash; each
// lives in its own file with its description and schema beside its code. Paths the model names
// are resolved by ResolvePath, which confines them to the workspace.
package tools
