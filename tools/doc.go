// Package tools holds troupe's tool contract and the built-in tools.
//
// A tool call is generated text asking to change the world, so it is treated as a proposal
// under a contract rather than a function call: Registry.Execute runs the fixed lifecycle
// (parse, repair, schema-validate, path policy, [later: state, repetition, permission],
// execute, bound the result) and every failure along it becomes a Result the model can act
// on, never a panic and never a silent side effect.
//
// The built-in tools are read_file, write_file, edit_file, list_dir, glob, grep and bash; each
// lives in its own file with its description and schema beside its code. Paths the model names
// are resolved by ResolvePath, which confines them to the workspace.
package tools
