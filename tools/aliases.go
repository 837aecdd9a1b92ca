package tools

import "strings"

// argAliases maps the argument names other harnesses and models use to ours, keyed by
// normalizedName. An alias lists its canonical names in order of preference; the first one
// the tool's schema declares (and the call does not already carry) wins.
var argAliases = map[string][]string{
	// path
	"file": {"path"}, "filepath": {"path"}, "filename": {"path"}, "pathtofile": {"path"},
	"targetfile": {"path"}, "absolutepath": {"path"}, "dir": {"path"}, "directory": {"path"},
	"folder": {"path"}, "dirpath": {"path"}, "directorypath": {"path"}, "filetoread": {"path"},
	"uri": {"path"}, "searchinfolder": {"path"}, // Void's tools (a workspace path as uri)
	// command
	"cmd": {"command"}, "script": {"command"}, "commandline": {"command"},
	"shellcommand": {"command"}, "argv": {"command"}, // an argv array, joined by argvCommand
	"code": {"content"}, // never command: {"code": …} alone is code to run in its language, not the shell
	// edit_file
	"oldstr": {"old_string"}, "oldtext": {"old_string"}, "search": {"old_string", "pattern"},
	"find": {"old_string", "pattern"}, "newstr": {"new_string"}, "newtext": {"new_string"},
	"replace": {"new_string"}, "replacement": {"new_string"}, "replaceall": {"replace_all"},
	"old": {"old_string"}, "new": {"new_string"}, // Kimi CLI's StrReplaceFile edits
	"oldcontent": {"old_string"}, "originaltext": {"old_string"}, "originalstring": {"old_string"},
	"searchtext": {"old_string", "pattern"}, "searchstring": {"old_string", "pattern"}, "findtext": {"old_string", "pattern"},
	"replacetext": {"new_string"}, "replacestring": {"new_string"}, "replacewith": {"new_string"},
	"replacementtext": {"new_string"}, "updatedtext": {"new_string"},
	// write_file
	"text": {"content"}, "contents": {"content"}, "filetext": {"content"}, "data": {"content"},
	"filecontent": {"content"}, "filecontents": {"content"}, "thecontent": {"content"}, // avante
	"newcontent": {"content", "new_string"}, // Void's rewrite_file; an edit's new content
	// grep and glob
	"regex": {"pattern"}, "regexp": {"pattern"}, "query": {"pattern"},
	"searchpattern": {"pattern"}, "globpattern": {"pattern"}, "include": {"glob"},
	"filepattern": {"glob", "pattern"}, "contextlines": {"context"}, // Amp's glob takes filePattern
	"includepattern": {"glob"}, "searchpath": {"path"}, "searchdirectory": {"path"}, // Cursor, Zed, Windsurf
	"relativeworkspacepath": {"path"},    // Cursor's list_dir
	"targetdirectory":       {"path"},    // Cursor's glob_file_search and list_dir
	"codecontent":           {"content"}, // Windsurf's write_to_file
	// read_file
	"startline": {"offset"}, "line": {"offset"}, "linenumber": {"offset"}, "lines": {"limit"},
	"maxlines": {"limit"}, "numlines": {"limit"}, "linecount": {"limit"},
	"lineoffset": {"offset"}, "nlines": {"limit"}, // Kimi CLI's ReadFile
	// bash and list_dir
	"timeout": {"timeout_s"}, "timeoutseconds": {"timeout_s"}, "timeoutsec": {"timeout_s"},
	"runinbackground": {"background"}, "maxdepth": {"depth"},
	"isbackground": {"background"}, "maxwaitseconds": {"timeout_s"}, // Cursor's run_terminal_cmd; Augment's launch-process
}

// wrapperKeys are the keys a model wraps the real arguments in.
var wrapperKeys = []string{"arguments", "input", "parameters", "args", "action_json", "action", "tool_args"}

// normalizedName folds case and drops the separators of snake, kebab and camel case, so
// file_path, filePath and File-Path all read "filepath".
func normalizedName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
