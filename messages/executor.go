package messages

// The session asks its tool executor for everything that needs the executor's environment (the
// workspace, the file truth, the sandbox, the permission gate), by message: the executor owns
// that environment, and the answers come back as messages, the same whether the executor runs
// in the session's process or not.

// RecheckFiles asks the executor to re-check the files the session's model has read, before the
// turn's model call; the answer is FilesRechecked.
type RecheckFiles struct {
	Turn int `json:"turn"`
}

// FilesRechecked lists the files changed or deleted outside the session since the model read
// them (nothing when it has read nothing).
type FilesRechecked struct {
	Turn    int          `json:"turn"`
	Changes []FileChange `json:"changes,omitempty"`
}

// FileChange is one file changed outside the session (the same fields as tools.FileChange:
// messages cannot import tools).
type FileChange struct {
	Path string         `json:"path"`
	Kind FileChangeKind `json:"kind"`
	Diff string         `json:"diff,omitempty"`
}

// FileChangeKind says how a file the session read differs from what it read.
type FileChangeKind string

// The kinds of file change.
const (
	FileChanged FileChangeKind = "changed"
	FileDeleted FileChangeKind = "deleted"
)

// RunCheck asks the executor to run the project's check command (the definition of done) in
// its environment, as bash would run it but without approval: the user configured it. A Cancel
// to the executor stops it; the answer is CheckResult.
type RunCheck struct {
	Turn     int    `json:"turn"`
	Command  string `json:"command"`
	TimeoutS int    `json:"timeout_s"`
}

// CheckResult is the outcome of a RunCheck.
type CheckResult struct {
	Turn    int    `json:"turn"`
	Output  string `json:"output"`
	IsError bool   `json:"is_error,omitempty"`
}

// SessionAllowlist is the gate's session allowlist (patterns allowed by "allow-session"
// answers), sent by the executor each time it grows: the session hands it on to its children.
type SessionAllowlist struct {
	Patterns []string `json:"patterns"`
}
