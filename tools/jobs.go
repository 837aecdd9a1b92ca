package tools

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Job describes a background command started by bash with background=true.
type Job struct {
	ID       int
	PID      int
	Command  string
	LogPath  string
	Started  time.Time
	Running  bool
	ExitCode int // meaningful once Running is false; -1 if killed by a signal
}

// jobRegistry owns a session's background commands: each has a goroutine that reaps it, and
// stopAll ends them all. The zero value is ready to use.
type jobRegistry struct {
	mu     sync.Mutex
	nextID int
	jobs   []*job
	closed bool
}

type job struct {
	Job
	done chan struct{} // closed when the leader has been reaped
}

// start launches cmd (already configured, not started) in its own process group with its
// output going to a new log file under dir.
func (r *jobRegistry) start(cmd *exec.Cmd, command, dir string) (Job, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return Job{}, errors.New("the session is closing; no new background jobs")
	}
	r.nextID++
	id := r.nextID
	logPath := filepath.Join(dir, fmt.Sprintf("job-%d.log", id))
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return Job{}, fmt.Errorf("create job log: %w", err)
	}
	defer logFile.Close() // the child holds its own copy
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = logFile, logFile
	inOwnGroup(cmd)
	if err := cmd.Start(); err != nil {
		return Job{}, fmt.Errorf("start background job: %w", err)
	}
	j := &job{Job: Job{ID: id, PID: cmd.Process.Pid, Command: command, LogPath: logPath, Started: time.Now(), Running: true},
		done: make(chan struct{})}
	r.jobs = append(r.jobs, j)
	go r.reap(j, cmd)
	return j.Job, nil
}

// reap waits for the job's leader and records how it ended.
func (r *jobRegistry) reap(j *job, cmd *exec.Cmd) {
	_ = cmd.Wait()
	r.mu.Lock()
	j.Running = false
	j.ExitCode = cmd.ProcessState.ExitCode()
	r.mu.Unlock()
	close(j.done)
}

func (r *jobRegistry) list() []Job {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Job, len(r.jobs))
	for i, j := range r.jobs {
		out[i] = j.Job
	}
	return out
}

// stopAll kills every job's process group (a job whose leader exited may have left children)
// and waits until each leader is reaped.
func (r *jobRegistry) stopAll() error {
	r.mu.Lock()
	r.closed = true
	jobs := append([]*job(nil), r.jobs...)
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			stopGroup(j.PID, j.done, killGrace)
			<-j.done
		})
	}
	wg.Wait()
	return nil
}
