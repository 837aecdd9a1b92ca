// Package prompt assembles a headless run's task the way shells give prompts: from the command
// line's words, from stdin, or both (stdin then appended as context), within a bound and as
// text only.
package prompt

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
)

// stdinLimit bounds what troupe takes from stdin, as the task or as context appended to it:
// 256 KiB is about 64k tokens, already a large share of most models' windows. More is refused
// with one line rather than cut silently (a truncated diff reviews wrong).
const stdinLimit = 256 << 10

// stdinHintAfter is how long a pipe may stay silent before troupe says it is waiting on it: a
// pipe nobody closes (a CI step, a parent holding it open) must not look like a hang.
const stdinHintAfter = 2 * time.Second

// Task builds a headless run's task the way shells give prompts: the words of args are one
// prompt; none, or "-", reads the prompt from stdin; a prompt with a piped stdin gets stdin
// appended as context. A terminal on stdin is never waited on; stderr hears that troupe waits
// on a silent pipe.
func Task(args []string, stdin io.Reader, stderr io.Writer) (string, error) {
	prompt := strings.Join(args, " ")
	fromStdin := len(args) == 0 || (len(args) == 1 && args[0] == "-")
	piped := stdinPiped(stdin)
	if fromStdin {
		if !piped {
			return "", clierr.Usagef("no task: give it as arguments (troupe run fix the failing test) or on stdin (echo \"fix it\" | troupe run)")
		}
		data, err := readStdin(stdin, stderr)
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(data) == "" {
			return "", clierr.Usagef("no task: stdin was empty; give the task as arguments or pipe it in")
		}
		return strings.TrimSpace(data), nil
	}
	if strings.TrimSpace(prompt) == "" {
		return "", clierr.Usagef("the task is empty")
	}
	if !piped {
		return prompt, nil
	}
	data, err := readStdin(stdin, stderr)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(data) == "" {
		return prompt, nil
	}
	return withContext(prompt, data), nil
}

// withContext appends stdin to the prompt, marked so the model tells the request from the data.
func withContext(prompt, data string) string {
	return prompt + "\n\n<stdin>\n" + strings.TrimRight(data, "\n") + "\n</stdin>"
}

// stdinPiped reports whether stdin carries data to read: a pipe, a file or a socket. A terminal
// is a person (never waited on) and /dev/null, a character device too, carries nothing.
func stdinPiped(r io.Reader) bool {
	if r == nil {
		return false
	}
	f, ok := r.(*os.File)
	if !ok {
		return true // an in-process reader (tests) is data
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice == 0
}

// readStdin reads stdin whole, up to stdinLimit, and refuses binary data. While a pipe stays
// silent it says once that it waits on it.
func readStdin(stdin io.Reader, stderr io.Writer) (string, error) {
	type read struct {
		data []byte
		err  error
	}
	got := make(chan read, 1)
	go func() { // owner: readStdin; it ends with stdin (EOF or the process's exit)
		data, err := io.ReadAll(io.LimitReader(stdin, stdinLimit+1))
		got <- read{data, err}
	}()
	hint := time.NewTimer(stdinHintAfter)
	defer hint.Stop()
	var r read
	select {
	case r = <-got:
	case <-hint.C:
		fmt.Fprintln(stderr, "troupe: waiting for stdin to close (pipe the input, or add </dev/null to run without it)")
		r = <-got
	}
	if r.err != nil {
		return "", clierr.Usagef("read stdin: %v", r.err)
	}
	return checkStdin(r.data)
}

// checkStdin accepts text within the bound; anything else is one line that says what to do.
func checkStdin(data []byte) (string, error) {
	if len(data) > stdinLimit {
		return "", clierr.Usagef("stdin has more than %d KiB, troupe's bound for a prompt or context from stdin; save it to a file and name the file in the task, or pipe less", stdinLimit>>10)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", clierr.Usagef("stdin is binary data (a NUL byte at offset %d), not text; name the file in the task instead", i)
	}
	if !utf8.Valid(data) {
		return "", clierr.Usagef("stdin is not UTF-8 text; convert it (iconv) or name the file in the task instead")
	}
	return string(data), nil
}
