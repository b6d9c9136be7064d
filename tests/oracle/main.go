// SPDX-License-Identifier: GPL-3.0-or-later
//
// Writes fresh profiles with a random workload (seeded from the clock
// unless -seed is given), so that Embers is checked against go tool pprof
// on profiles that are not in the repository.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink uint64
var keep [][]byte

//go:noinline
func burn(n int) {
	for i := 0; i < n; i++ {
		sink += uint64(i) ^ (sink >> 3)
	}
}

func small(n int) { burn(n) } // inlined into callers

//go:noinline
func parse(n int)    { small(n) }
//go:noinline
func encode(n int)   { burn(n) }
//go:noinline
func compress(n int) { burn(n / 2); encode(n / 2) }
//go:noinline
func hash(n int)     { small(n) }

//go:noinline
func walk(depth, n int) {
	if depth == 0 {
		burn(n)
		return
	}
	walk(depth-1, n)
}

//go:noinline
func ping(depth, n int) {
	if depth == 0 {
		burn(n)
		return
	}
	pong(depth-1, n)
}

//go:noinline
func pong(depth, n int) {
	if depth == 0 {
		hash(n)
		return
	}
	ping(depth-1, n)
}

//go:noinline
func alloc(r *rand.Rand, size int) {
	b := make([]byte, size)
	if r.Intn(3) == 0 {
		keep = append(keep, b)
	}
}

//go:noinline
func allocMap(n int) map[int]string {
	m := make(map[int]string, n)
	for i := 0; i < n; i++ {
		m[i] = fmt.Sprint(i)
	}
	return m
}

func work(r *rand.Rand, weights []int, until time.Time) {
	for time.Now().Before(until) {
		switch k := r.Intn(6); k {
		case 0:
			parse(weights[0])
		case 1:
			compress(weights[1])
		case 2:
			walk(1+r.Intn(12), weights[2])
		case 3:
			ping(1+r.Intn(9), weights[3])
		case 4:
			hash(weights[4])
		default:
			encode(weights[5])
		}
	}
}

func main() {
	out := flag.String("out", ".", "output folder")
	seed := flag.Int64("seed", time.Now().UnixNano(), "random seed")
	seconds := flag.Float64("seconds", 1.5, "CPU profile length")
	flag.Parse()

	r := rand.New(rand.NewSource(*seed))
	fmt.Printf("seed %d\n", *seed)
	weights := make([]int, 6)
	for i := range weights {
		weights[i] = 20000 + r.Intn(400000)
	}

	runtime.MemProfileRate = 512
	cpu, err := os.Create(filepath.Join(*out, "live-cpu.pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		panic(err)
	}
	until := time.Now().Add(time.Duration(*seconds * float64(time.Second)))
	done := make(chan bool)
	regions := []string{"eu", "us", "ap"}
	for g := 0; g < 2; g++ {
		go func(g int) {
			labels := pprof.Labels("region", regions[r.Intn(len(regions))], "worker", fmt.Sprint(g))
			pprof.Do(context.Background(), labels, func(context.Context) {
				work(rand.New(rand.NewSource(*seed+int64(g))), weights, until)
			})
			done <- true
		}(g)
	}
	<-done
	<-done
	pprof.StopCPUProfile()
	cpu.Close()

	for i := 0; i < 2000; i++ {
		alloc(r, 16+r.Intn(8192))
		if i%100 == 0 {
			_ = allocMap(50 + r.Intn(200))
		}
	}
	runtime.GC()
	heap, err := os.Create(filepath.Join(*out, "live-heap.pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := pprof.Lookup("heap").WriteTo(heap, 0); err != nil {
		panic(err)
	}
	heap.Close()
}
