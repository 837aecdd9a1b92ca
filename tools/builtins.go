package tools

// Builtins returns the core tools in the order the model sees them.
func Builtins() []Tool {
	return []Tool{readFile{}, writeFile{}, editFile{}, listDir{}, globTool{}, grepTool{}, bashTool{}}
}
