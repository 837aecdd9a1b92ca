package taskstate

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/troupe-dev/troupe/internal/gitship"
	"github.com/troupe-dev/troupe/store"
)

// Mirror copies what a worker's store commits for the tasks it tracks to the project's state
// bucket, in commit order, on its own goroutine: the store's commit hook only encodes and
// queues, so no actor ever waits on the network. A task with a worktree is checkpointed before
// each tool result is mirrored.
type Mirror struct {
	st           *State
	cache        *gitship.Cache
	report       func(error)
	putRetry     time.Duration // pause before retrying a failed write
	writeTimeout time.Duration // one write's deadline (writeTimeout)

	mu     sync.Mutex
	tasks  map[string]*gitship.Checkout // tracked tasks → their worktree (nil: none)
	big    map[string][]string          // the objects of the oversized entries written, by task
	queue  []job
	wake   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	closed bool
}

// job is one write, a checkpoint, or a flush marker (flushed set).
type job struct {
	task    string
	key     string
	value   []byte
	seq     uint64
	ckpt    *gitship.Checkout
	flushed chan struct{}
}

// NewMirror starts the mirror's goroutine; report hears each write that failed for good (the
// task then resumes from an earlier point, never a wrong one). Close stops it.
func (s *State) NewMirror(cache *gitship.Cache, report func(error)) *Mirror {
	if report == nil {
		report = func(error) {}
	}
	m := &Mirror{st: s, cache: cache, report: report, putRetry: 200 * time.Millisecond, writeTimeout: writeTimeout,
		tasks: map[string]*gitship.Checkout{}, big: map[string][]string{}, wake: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	go m.loop()
	return m
}

// Track starts mirroring task (a session id of the worker's store); co, when not nil, is its
// worktree, checkpointed before each tool result. Track after Restore, so restored entries are
// not written back.
func (m *Mirror) Track(task string, co *gitship.Checkout) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tasks[task] = co
}

// Untrack stops mirroring task (its result is delivered); what is queued is still written.
func (m *Mirror) Untrack(task string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.tasks, task)
}

// takeBig returns, and forgets, the names of the oversized entries written for task.
func (m *Mirror) takeBig(task string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	big := m.big[task]
	delete(m.big, task)
	return big
}

// Hook is the store.CommitHook to install on the worker's store.
func (m *Mirror) Hook() store.CommitHook { return m.committed }

func (m *Mirror) committed(session string, entries []*store.Entry, meta *store.SessionMeta) {
	m.mu.Lock()
	defer m.mu.Unlock()
	co, ok := m.tasks[session]
	if !ok || m.closed {
		return
	}
	var jobs []job
	checkpointed := false
	for _, e := range entries {
		if e.Kind == store.KindToolResult && co != nil && !checkpointed {
			jobs = append(jobs, job{task: session, ckpt: co}) // the worktree first (see package doc)
			checkpointed = true
		}
		b, err := json.Marshal(e)
		if err != nil {
			m.report(fmt.Errorf("taskstate: encode entry %d of %s: %w", e.Seq, session, err))
			return
		}
		jobs = append(jobs, job{task: session, key: entryKey(session, e.Seq), value: b, seq: e.Seq})
	}
	if meta != nil {
		b, err := json.Marshal(meta)
		if err != nil {
			m.report(fmt.Errorf("taskstate: encode the meta of %s: %w", session, err))
			return
		}
		jobs = append(jobs, job{task: session, key: metaKey(session), value: b})
	}
	m.queue = append(m.queue, jobs...)
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// Flush waits until everything queued so far is written (or ctx ends): before a worker acks a
// task, and in tests.
func (m *Mirror) Flush(ctx context.Context) error {
	ch := make(chan struct{})
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.queue = append(m.queue, job{flushed: ch})
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("taskstate: flush the mirror: %w", ctx.Err())
	}
}

// Close writes what is queued, then stops the goroutine.
func (m *Mirror) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	m.mu.Unlock()
	close(m.stop)
	<-m.done
}

func (m *Mirror) loop() {
	defer close(m.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var drain context.Context // once stopping: one budget for all that is left
	for {
		m.mu.Lock()
		jobs := m.queue
		m.queue = nil
		m.mu.Unlock()
		stopping := m.stopping()
		if stopping && drain == nil {
			var cancelDrain context.CancelFunc
			drain, cancelDrain = context.WithTimeout(ctx, m.writeTimeout)
			defer cancelDrain()
		}
		if stopping {
			m.run(drain, jobs, 1) // so Close is bounded when the bus is down
		} else {
			m.run(ctx, jobs, 3)
		}
		if len(jobs) > 0 {
			continue
		}
		if stopping {
			return
		}
		select {
		case <-m.wake:
		case <-m.stop:
		}
	}
}

func (m *Mirror) stopping() bool {
	select {
	case <-m.stop:
		return true
	default:
		return false
	}
}

// writeTimeout bounds one write to the bucket, and all the writes Close still makes.
const writeTimeout = 10 * time.Second

// do carries out one job; a write is tried up to tries times. A write that fails for good
// leaves a gap, and a restore stops before it: the task resumes from earlier, never wrongly.
func (m *Mirror) do(ctx context.Context, j job, tries int) {
	switch {
	case j.flushed != nil:
		close(j.flushed)
	case j.ckpt != nil:
		ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		defer cancel()
		if _, err := m.cache.Checkpoint(ctx, j.ckpt, m.st.objs); err != nil {
			m.report(fmt.Errorf("taskstate: %w", err))
		}
	default:
		var err error
		for try := 0; try < tries; try++ {
			if err = m.put(ctx, j); err == nil {
				return
			}
			if try == tries-1 {
				break
			}
			select {
			case <-time.After(m.putRetry << try):
			case <-m.stop:
				tries = try + 1 // stopping: no more retries
			}
		}
		m.report(fmt.Errorf("taskstate: mirror %s of %s: %w", j.key, j.task, err))
	}
}

func (m *Mirror) put(ctx context.Context, j job) error {
	ctx, cancel := context.WithTimeout(ctx, m.writeTimeout)
	defer cancel()
	value := j.value
	if len(value) > maxValue {
		name := bigEntryName(j.task, j.seq)
		if _, err := m.st.objs.PutBytes(ctx, name, value); err != nil {
			return err
		}
		m.mu.Lock()
		m.big[j.task] = append(m.big[j.task], name)
		m.mu.Unlock()
		value = []byte(objPrefix + name)
	}
	_, err := m.st.kv.Put(ctx, j.key, value)
	return err
}
