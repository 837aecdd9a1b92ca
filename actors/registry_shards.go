package actors

import cmap "github.com/orcaman/concurrent-map"

// protoactor's process registry is 1,024 buckets of concurrent-map maps, each cut into
// cmap.SHARD_COUNT (32) shards: 32,768 Go maps, about 3.5 MiB of private memory, made by every
// actor system before its first actor. The 1,024 buckets already spread the registry's locks
// (a Node holds tens of actors, a thousand subagents at most), so one shard per bucket keeps
// the same concurrency for about 110 KiB. concurrent-map reads the count on every access, so it
// is set here, in package initialisation, before any map exists, and never again; protoactor's
// registry is the only user of the package in troupe.
func init() { cmap.SHARD_COUNT = 1 }
