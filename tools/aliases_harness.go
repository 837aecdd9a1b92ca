package tools

import (
	"encoding/json"
	"strings"
)

// harnessTool maps another harness's tool to one of ours.
type harnessTool struct {
	// target is our tool; convert may choose another per call (str_replace_editor's command).
	target string
	// convert, when set, rewrites the arguments in place first. It returns the target when it
	// chooses one, or a refusal saying precisely why the call cannot be mapped.
	convert func(args map[string]any) (target, refusal string)
	// rename maps their argument names to ours (applied when ours is absent).
	rename map[string]string
	// drop lists arguments with no effect here (descriptions, output modes).
	drop []string
	// textArg, when set, names the argument a call's bare text stands for: arguments that are
	// not a JSON object but the input itself (Codex's apply_patch is a freeform tool), or a
	// Python call's one positional string (search_files('*.py'): the pattern, the first
	// parameter of Hermes Agent's search_files and of the benchmarks' that define it).
	textArg string
	// isText says whether bare arguments are that input.
	isText func(text string) bool
	// positional, when set, names the arguments bare lines stand for, one a line in the
	// definition's order (<str_replace_editor> view / a.go </str_replace_editor>).
	positional []string
}

// textArgs reads arguments sent as the bare input, or as one JSON string holding it.
func (h harnessTool) textArgs(raw string) (map[string]any, bool) {
	if args, ok := positionalArgs(raw, h.positional); ok {
		return args, true
	}
	if h.textArg == "" {
		return nil, false
	}
	text := strings.TrimSpace(raw)
	var s string
	if json.Unmarshal([]byte(text), &s) == nil {
		text = s
	} else if s, ok := singleQuoted(text); ok {
		text = s // a Python call's positional string: search_files('*.py')
	}
	if !h.isText(text) {
		return nil, false
	}
	return map[string]any{h.textArg: text}, true
}

// harnessTools are the tool names of other harnesses, exactly as they spell them. Argument
// names the generic aliases already cover (file_path, old_str, file_text...) are left to them.
var harnessTools = map[string]harnessTool{
	// Claude Code
	"Read":      {target: "read_file"},
	"Write":     {target: "write_file"},
	"Edit":      {target: "edit_file"},
	"MultiEdit": {target: "edit_file", convert: flattenMultiEdit},
	"Bash": {target: "bash", convert: millisecondsTimeout("timeout"), drop: []string{"description"},
		rename: map[string]string{"run_in_background": "background"}},
	"Grep": {target: "grep", convert: claudeGrep,
		drop: []string{"output_mode", "-n", "head_limit", "multiline", "offset"}},
	"Glob": {target: "glob"},
	"LS":   {target: "list_dir", convert: listingGlob(nil), drop: []string{"ignore"}},
	// early Claude Code's names for them (seen from Qwen3-Coder, vllm#22975)
	"GrepTool": {target: "grep", convert: claudeGrep,
		drop: []string{"output_mode", "-n", "head_limit", "multiline", "offset"}},
	"GlobTool": {target: "glob"},
	// Claude Code's tool modules (src/tools/FileReadTool, FileWriteTool, FileEditTool): harnesses
	// built on its source name the tools after them, and models echo those names (ccany#3)
	"FileRead":  {target: "read_file"},
	"FileWrite": {target: "write_file"},
	"FileEdit":  {target: "edit_file"},
	// Codex: shell (an argv), shell_command (a command line), the unified exec_command (cmd,
	// codex-rs/core/src/tools/spec.rs), the Responses API's local_shell; OpenClaw's exec
	"shell":         {target: "bash", convert: codexShell},
	"shell_command": {target: "bash", convert: codexShell},
	"local_shell":   {target: "bash", convert: codexShell},
	"exec_command":  {target: "bash", convert: codexExec},
	"exec":          {target: "bash"},
	"apply_patch":   {target: "edit_file", convert: applyPatch, textArg: "input", isText: isPatchText},
	// Gemini CLI (read_file, write_file and glob share our names)
	"replace":             {target: "edit_file", convert: geminiReplace},
	"run_shell_command":   {target: "bash", convert: inDirectory("directory"), drop: []string{"description"}},
	"search_file_content": {target: "grep"},
	"list_directory":      {target: "list_dir", drop: []string{"ignore", "respect_git_ignore", "file_filtering_options"}},
	// Gemini CLI's and Qwen Code's tool classes (packages/core/src/tools: ShellTool is
	// run_shell_command, EditTool replace, LSTool list_directory…), which models name with or
	// without a method (ShellTool.run: llxprt-code#303); GlobTool and GrepTool are above
	"ShellTool":         {target: "bash", convert: inDirectory("directory"), drop: []string{"description"}},
	"ReadFileTool":      {target: "read_file"},
	"WriteFileTool":     {target: "write_file"},
	"EditTool":          {target: "edit_file", convert: geminiReplace},
	"LSTool":            {target: "list_dir", drop: []string{"ignore", "respect_git_ignore", "file_filtering_options"}},
	"ReadManyFilesTool": {target: "read_file"},
	// OpenHands (CodeActAgent; the agent SDK's terminal and file_editor), Anthropic's text
	// editor tool and Goose's unprefixed text_editor (aliases_editors.go)
	"str_replace_editor":          {convert: textEditor, positional: editorOrder},
	"str_replace_based_edit_tool": {convert: textEditor, positional: editorOrder},
	"text_editor":                 {convert: textEditor, positional: editorOrder},
	"file_editor":                 {convert: textEditor, positional: editorOrder},
	"execute_bash":                {target: "bash", convert: refuseInput, drop: []string{"security_risk"}},
	"terminal":                    {target: "bash", convert: refuseInput, drop: []string{"security_risk"}},
	// Kimi CLI (Shell, ReadFile, WriteFile, Glob and Grep are our names in other spellings or
	// Claude Code's) and Mistral Vibe
	"StrReplaceFile": {target: "edit_file", convert: kimiStrReplace},
	"search_replace": {target: "edit_file", convert: vibeSearchReplace},
	// Codex's experimental grep_files (pattern, include, path, limit); opencode's list
	"grep_files": {target: "grep", drop: []string{"limit"}},
	"list":       {target: "list_dir", convert: listingGlob(nil), drop: []string{"ignore"}},
	// Cline, Roo Code and Kilo Code (aliases_cline.go); read_file and search_files are shared
	"execute_command":    {target: "bash", convert: inDirectory("cwd"), drop: []string{"requires_approval"}},
	"write_to_file":      {target: "write_file", convert: emptyFile, drop: []string{"line_count"}},
	"replace_in_file":    {target: "edit_file", convert: searchReplaceDiff},
	"apply_diff":         {target: "edit_file", convert: searchReplaceDiff},
	"list_files":         {target: "list_dir", convert: listFiles},
	"search_and_replace": {target: "edit_file", convert: rooSearchAndReplace},
	"use_mcp_tool":       {convert: clineMCPTool},
	// Continue (core/tools/builtIn.ts; read_file shares our name, its filepath is an alias)
	"create_new_file":            {target: "write_file"},
	"single_find_and_replace":    {target: "edit_file"},
	"run_terminal_command":       {target: "bash", drop: []string{"waitForCompletion"}},
	"grep_search":                {target: "grep", drop: []string{"exclude_pattern", "MatchPerLine"}},
	"file_glob_search":           {target: "glob"},
	"ls":                         {target: "list_dir", convert: listingGlob(lsRecursive), drop: []string{"ignore"}}, // Continue's (dirPath, recursive), Crush's (path, ignore)
	"search_and_replace_in_file": {target: "edit_file", convert: searchReplaceDiff},                                 // filepath, diffs
	"view_subdirectory":          {target: "list_dir"},
	// GitHub Copilot in VS Code (its agent mode's built-in tools; read_file, list_dir and
	// create_file share names with ours or others above, and filePath/oldString are aliases;
	// file_search takes a glob in query, an alias of pattern: ollama#11470)
	"file_search":            {target: "glob"},
	"run_in_terminal":        {target: "bash", convert: copilotTerminal, drop: []string{"explanation"}},
	"replace_string_in_file": {target: "edit_file", drop: []string{"explanation"}},
	// Goose (its developer extension's tools, namespaced developer__)
	"developer__text_editor": {convert: gooseTextEditor},
	"developer__shell":       {target: "bash"},
	// The reference MCP filesystem server (modelcontextprotocol/servers), which Goose
	// namespaces filesystem__ (goose#2926); read_file and write_file share our names
	"read_text_file": {target: "read_file", rename: map[string]string{"head": "limit"}, drop: []string{"tail"}},
	"directory_tree": {target: "list_dir", convert: directoryTree},
	// wcgw (aliases_action.go); ReadFiles' file_paths are split into one read each
	"BashCommand":     {target: "bash", convert: wcgwBash},
	"ReadFiles":       {target: "read_file"},
	"FileWriteOrEdit": {convert: wcgwWriteOrEdit},
	// several files at once: split into one read each (split.go); Gemini CLI's read_many_files
	"read_multiple_files": {target: "read_file"},
	"read_many_files":     {target: "read_file"},
	"search_files":        {convert: searchFiles, textArg: "pattern", isText: isOneLine},
	// Gemma's tool_code block sent as a tool (aliases_toolcode.go): split into its calls
	"tool_code": {convert: toolCodeRefusal},
	// IDE agents, as their published tool definitions declare them (aliases_ide.go)
	"run_command":      {target: "bash", convert: windsurfCommand},
	"launch-process":   {target: "bash", convert: augmentProcess},
	"find_by_name":     {target: "glob", convert: windsurfFind},
	"find_path":        {target: "glob", rename: map[string]string{"glob": "pattern"}, drop: []string{"offset"}},
	"glob_file_search": {target: "glob"}, // Cursor's (glob_pattern, target_directory)
	// gpt-oss's repo_browser (aliases_gptoss.go): the names not already ours or another's
	"repo_browser.search": {target: "grep", convert: repoBrowserSearch},
	// its list_files is the tree, as harnesses serving it map it, not Cline's top level
	"repo_browser.list_files": {target: "list_dir"},
	"print_tree":              {target: "list_dir"},
	"ls_path":                 {target: "list_dir"},
	"read_file_lines":         {target: "read_file"},
	"run_command_output":      {target: "bash", convert: codexShell},
	// Open Interpreter's execute (language, code); llm-functions' fs_* tools (path, contents)
	"execute": {target: "bash", convert: interpreterExecute},
	// the same (language, code) shape under the names agent frameworks give a code runner
	"run_code":     {target: "bash", convert: interpreterExecute},
	"execute_code": {target: "bash", convert: interpreterExecute},
	// file-system operations as shell commands (aliases_fsops.go)
	"touch":            {target: "bash", convert: shellOp("touch")},
	"mkdir":            {target: "bash", convert: shellOp("mkdir -p")},
	"create_directory": {target: "bash", convert: shellOp("mkdir -p")},
	"make_directory":   {target: "bash", convert: shellOp("mkdir -p")},
	"move_file":        {target: "bash", convert: moveFile},
	// Zed's file tools (its agent's tool list) and Cursor's and Augment's deletes: rm, mv and
	// cp over the quoted paths, judged by bash's gate like any command
	"delete_file":  {target: "bash", convert: shellOp("rm")},
	"remove-files": {target: "bash", convert: shellOp("rm")},
	"delete_path":  {target: "bash", convert: shellOp("rm -r")},
	"move_path":    {target: "bash", convert: moveFile},
	"copy_path":    {target: "bash", convert: copyPath},
	// Agent Zero's terminal (aliases_agentzero.go)
	"code_execution_tool": {target: "bash", convert: agentZeroCode},
	// Anthropic's text editor commands called as tools (str_replace, create with file_text)
	"str_replace": {target: "edit_file"},
	"create":      {target: "write_file", convert: createWithText},
	"fs_cat":      {target: "read_file"},
	"fs_ls":       {target: "list_dir"},
	"fs_write":    {target: "write_file"},
	"fs_patch":    {target: "edit_file", convert: fsPatch},
	// Void (aliases_void.go); read_file, edit_file and run_command share names above
	"ls_dir":                 {target: "list_dir", drop: []string{"page_number"}},
	"get_dir_tree":           {target: "list_dir", convert: voidTree},
	"rewrite_file":           {target: "write_file"},
	"search_pathnames_only":  {target: "glob", convert: voidPathnames},
	"search_for_files":       {target: "grep", convert: voidSearch},
	"search_in_file":         {target: "grep", convert: voidSearch},
	"run_persistent_command": {target: "bash", drop: []string{"persistent_terminal_id"}},
	// Hermes Agent's and opencode's patch
	"patch": {target: "edit_file", convert: patchTool},
	// Pi (its coding agent's find: a glob matched at any depth; the fff extension's ffgrep)
	"find":   {target: "glob", convert: piFind},
	"ffgrep": {target: "grep"},
	// SWE-agent and other common spellings
	"cat":         {target: "read_file"},
	"view":        {convert: viewPath},
	"open_file":   {target: "read_file"},
	"open":        {target: "read_file", convert: sweOpen},
	"search_file": {target: "grep", convert: searchDir},
	"create_file": {target: "write_file"},
	"run":         {target: "bash"},
	"sh":          {target: "bash"},
	"zsh":         {target: "bash"},
	"cmd":         {target: "bash"},
	"command":     {target: "bash"},
	"find_file":   {target: "glob", convert: findFile},
	// web tools (aliases_web.go), when the session has web_fetch and web_search
	"WebFetch":          {target: "web_fetch", convert: fetchURL},
	"fetch":             {target: "web_fetch", convert: fetchURL},
	"webfetch":          {target: "web_fetch", convert: fetchURL},
	"fetch_url_content": {target: "web_fetch", convert: fetchURL},
	"FetchURL":          {target: "web_fetch", convert: fetchURL},
	"web_scrape":        {target: "web_fetch", convert: fetchURL},
	"browser.open":      {target: "web_fetch", convert: fetchURL},
	"WebSearch":         {target: "web_search", convert: searchQuery},
	"google_web_search": {target: "web_search", convert: searchQuery},
	"search_web":        {target: "web_search", convert: searchQuery},
	"SearchWeb":         {target: "web_search", convert: searchQuery},
	"browser.search":    {target: "web_search", convert: searchQuery},
	// OpenHands' agent skills (file_name, to_replace, new_content)
	"edit_file_by_replace": {target: "edit_file", rename: map[string]string{"to_replace": "old_string"}},
	"search_dir":           {target: "grep", convert: searchDir},
}

// harnessByNormalized finds a harness tool by its name with case and separators folded
// (READ, multi_edit, StrReplaceEditor). It is built once and only read afterwards.
var harnessByNormalized = func() map[string]string {
	m := make(map[string]string, len(harnessTools))
	for name := range harnessTools {
		m[normalizedName(name)] = name
	}
	return m
}()

// singleQuoted is the content of a Python single-quoted string literal ('*.py', 'it\'s'),
// ok only when text is exactly one such literal.
func singleQuoted(text string) (string, bool) {
	if len(text) < 2 || text[0] != '\'' || text[len(text)-1] != '\'' {
		return "", false
	}
	var b strings.Builder
	body := text[1 : len(text)-1]
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\'':
			return "", false // a second literal, or a quote the model did not escape
		case c == '\\' && i+1 < len(body) && (body[i+1] == '\'' || body[i+1] == '\\'):
			b.WriteByte(body[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// isOneLine says whether text is one line of plain text: not empty, not an object or an
// array (arguments that are JSON are read as JSON).
func isOneLine(text string) bool {
	t := strings.TrimSpace(text)
	return t != "" && !strings.ContainsAny(t, "\n") && t[0] != '{' && t[0] != '['
}
