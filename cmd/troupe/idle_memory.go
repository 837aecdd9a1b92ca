package main

import "runtime/debug"

// releaseIdleMemory hands the heap an idle chat no longer uses back to the system, so its
// private memory (RssAnon) shrinks to what it holds. The binary's own text pages are left
// alone: they are clean, shared with the page cache, and the kernel reclaims them by itself
// when memory is short; paging them out would only make the next start fault them back in.
func releaseIdleMemory() { debug.FreeOSMemory() }
