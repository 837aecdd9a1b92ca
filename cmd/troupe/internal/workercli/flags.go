package workercli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/troupe-dev/troupe/internal/taskqueue"
)

// Flags are troupe worker's command-line flags.
type Flags struct {
	NATS, Creds, Name, RepoCache, Sandbox string
	Slots, MaxDeliver                     int
	AckWait, Grace                        time.Duration
}

// Register adds the worker's flags, with their defaults, to fs.
func (f *Flags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.NATS, "nats", "", "the NATS server or cluster to join (nats://host:4222[,…]; or nats in the config, TROUPE_NATS)")
	fs.StringVar(&f.Creds, "creds", "", "a .creds file (user JWT and seed) to authenticate with (overrides [bus] creds; or user:password in the URL)")
	fs.StringVar(&f.Name, "name", "", "this worker's name among the project's workers (default: the host name)")
	fs.IntVar(&f.Slots, "slots", DefaultSlots, "tasks run at once")
	fs.StringVar(&f.RepoCache, "repo-cache", "", "where checkouts of the project and the worker's state live (default ~/.cache/troupe/workers)")
	fs.StringVar(&f.Sandbox, "sandbox", "", "sandbox for bash: auto, landlock, bwrap, off")
	fs.DurationVar(&f.AckWait, "ack-wait", taskqueue.DefaultAckWait, "how long a task held by a worker that died waits before another takes it")
	fs.IntVar(&f.MaxDeliver, "max-deliver", taskqueue.DefaultMaxDeliver, "deliveries of a task before it goes to the dead-letter subject")
	fs.DurationVar(&f.Grace, "grace", 5*time.Second, "on stop, how long running tasks may finish before they go back to the queue")
}
