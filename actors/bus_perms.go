package actors

import (
	"fmt"
	"slices"
	"strings"
)

// CredKind is a kind of bus client. Each kind gets only the subjects it needs (docs/WORKERS.md
// "Who may do what"): the server refuses the rest, and the Node checks anything finer (which
// session a client may steer, which worker's result it accepts).
type CredKind string

const (
	// KindNode is a Node: everything of its project.
	KindNode CredKind = "node"
	// KindClient is an attached client (chat, run, attach, approve): it reads events, sends
	// sessions input, approvals and control, and asks the Node (start, list, log).
	KindClient CredKind = "client"
	// KindWorker is a troupe worker: it consumes spawn tasks through the JetStream API and
	// publishes on its own wrk.<name> subjects and the events of the sessions it runs.
	KindWorker CredKind = "worker"
	// KindWatcher is troupe watch: it reads events and asks the Node read-only queries.
	KindWatcher CredKind = "watcher"
)

// CredKinds lists the kinds, most powerful first.
var CredKinds = []CredKind{KindNode, KindClient, KindWorker, KindWatcher}

// ParseCredKind reads a kind's name.
func ParseCredKind(s string) (CredKind, error) {
	for _, k := range CredKinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("%q is not a bus credential kind (node, client, worker, watcher)", s)
}

// Grant is what one kind may do on the bus: the subjects it may publish to and subscribe to
// (NATS wildcards), or everything when All is set. AllowResponses lets it answer requests it
// received (a worker's sessions answer status and approval requests on their ctl subjects).
type Grant struct {
	All                bool
	Publish, Subscribe []string
	AllowResponses     bool
}

// jsConsume is the JetStream API a task consumer needs: its account's info, the streams' and
// consumers' info, creating its durable consumer, pulling, acknowledging (with in-progress
// heartbeats), the object store and key-value buckets (reads and writes of their subjects and
// direct gets), creating a stream that is missing, and the flow control of ordered
// consumers. The results bucket (internal/taskqueue, results.go) needs no more: a worker
// creates it when missing and puts a finished task's result under $KV. Deleting, purging or
// updating a stream is the Node's, except on the project's
// code object store and task-state bucket (jsOwn), where a checkpoint replaces the last one.
var jsConsume = []string{
	"$JS.API.INFO",
	"$JS.API.STREAM.INFO.*",
	"$JS.API.STREAM.CREATE.*",
	"$JS.API.STREAM.NAMES",
	"$JS.API.STREAM.LIST",
	"$JS.API.STREAM.MSG.GET.*",
	"$JS.API.DIRECT.GET.>",
	"$JS.API.CONSUMER.INFO.*.*",
	"$JS.API.CONSUMER.CREATE.*",
	"$JS.API.CONSUMER.CREATE.*.>",
	"$JS.API.CONSUMER.DURABLE.CREATE.*.*",
	"$JS.API.CONSUMER.MSG.NEXT.*.*",
	"$JS.ACK.>",
	"$JS.FC.>",
	"$KV.>",
	"$O.>",
}

// Stream names of a project's JetStream state (internal/taskqueue, internal/gitship,
// internal/taskstate spell them; bus_perms_test.go checks they agree).
func tasksStream(ns string) string { return "troupe_" + ns + "_tasks" }
func codeStream(ns string) string  { return "OBJ_troupe_code_" + ns }
func stateStream(ns string) string { return "KV_troupe_state_" + ns }

// jsOwn is what a worker may do to the project's code and task-state streams beyond jsConsume:
// purge an object's old chunks when it is replaced, and delete the ordered consumers it reads
// them with.
func jsOwn(ns string) []string {
	var out []string
	for _, s := range []string{codeStream(ns), stateStream(ns)} {
		out = append(out, "$JS.API.STREAM.PURGE."+s, "$JS.API.CONSUMER.DELETE."+s+".*")
	}
	return out
}

// WatcherInbox is the prefix of a watcher's reply subjects. A watcher may subscribe to these
// only, never to "_INBOX.>": the replies to clients there carry steer tokens (steer.go), which
// a watcher must not read.
const WatcherInbox = "_INBOX_watch"

// GrantFor is kind's grant in project ns.
func GrantFor(kind CredKind, ns string) Grant {
	p := "troupe." + ns + "."
	switch kind {
	case KindNode:
		return Grant{All: true}
	case KindClient:
		return Grant{
			Publish:   []string{p + "ctl.*", p + "node.*", p + "node.*.q"},
			Subscribe: []string{p + "evt.>", "_INBOX.>"},
		}
	case KindWorker:
		return Grant{
			Publish:        append(append([]string{p + "evt.>", p + "wrk.>", p + "dead"}, jsConsume...), jsOwn(ns)...),
			Subscribe:      []string{p + "evt.>", p + "wrk.>", p + "ctl.*", "_INBOX.>", "$JS.EVENT.ADVISORY.>"},
			AllowResponses: true,
		}
	case KindWatcher:
		return Grant{
			Publish:   []string{p + "node.*.q"},
			Subscribe: []string{p + "evt.>", WatcherInbox + ".>"},
		}
	}
	return Grant{} // an unknown kind may do nothing
}

// Describe says in one line per direction what the grant allows, for troupe doctor.
func (g Grant) Describe() (publish, subscribe string) {
	if g.All {
		return "everything of the project", "everything of the project"
	}
	var pubs []string
	js := false
	for _, s := range g.Publish {
		if slices.Contains(jsConsume, s) || strings.HasPrefix(s, "$JS.API.STREAM.PURGE.") || strings.HasPrefix(s, "$JS.API.CONSUMER.DELETE.") {
			if !js {
				pubs = append(pubs, "the JetStream API to consume tasks and keep code and task state (no delete, purge or update of the task queue)")
			}
			js = true
			continue
		}
		pubs = append(pubs, s)
	}
	publish = strings.Join(pubs, " ")
	if publish == "" {
		publish = "nothing"
	}
	if g.AllowResponses {
		publish += " (and replies to requests it receives)"
	}
	subscribe = strings.Join(g.Subscribe, " ")
	if subscribe == "" {
		subscribe = "nothing"
	}
	return publish, subscribe
}
