package machine

import "sync/atomic"

type atomicBool struct{ v atomic.Bool }

func (b *atomicBool) get() bool  { return b.v.Load() }
func (b *atomicBool) set(v bool) { b.v.Store(v) }
