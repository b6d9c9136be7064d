// SPDX-License-Identifier: GPL-3.0-or-later
//
// Writes the pprof fixtures in tests/fixtures/go/ with the Go runtime's own
// profiler (runtime/pprof), so that the pprof reader and the top table are
// checked against real profiles and against `go tool pprof -top`.
//
// Each profile is written by a fresh child process (the program runs itself
// with -write NAME), so that one profile's work never shows up in another.
//
//	cd tests/go && go run .            # writes ../fixtures/go/*.pb.gz
//	go run . -out DIR -write heap      # one profile only
//
// Standard library only; run it with GOFLAGS=-mod=mod GOPROXY=off.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"
)

var sink uint64

// cpuSeconds is the CPU time the process has used so far (user + system).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	tv := func(t syscall.Timeval) float64 {
		return float64(t.Sec) + float64(t.Usec)/1e6
	}
	return tv(ru.Utime) + tv(ru.Stime)
}

// spinUntil runs work in rounds until the process has used budget seconds
// of CPU time since start (or a generous wall-clock limit passes, on a
// very busy machine).
func spinUntil(start, budget float64, work func()) {
	deadline := time.Now().Add(60 * time.Second)
	for cpuSeconds()-start < budget && time.Now().Before(deadline) {
		work()
	}
}

// ---------------------------------------------------------------------------
// cpu-labels: several functions, some goroutines under pprof.Do labels

//go:noinline
func burn(n int) uint64 {
	x := sink + 1
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	sink = x
	return x
}

// Each function below spins in its own loop, so each has self time.

//go:noinline
func parseRequest(n int) {
	x := sink
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink = x
}

//go:noinline
func lookupUser(n int) {
	x := sink | 1
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	sink = x
}

//go:noinline
func renderPage(n int) {
	x := sink
	for i := 0; i < n/2; i++ {
		x += uint64(i) * 0x9E3779B97F4A7C15
	}
	sink = x
	escapeHTML(n / 2)
}

//go:noinline
func escapeHTML(n int) {
	x := sink
	for i := 0; i < n; i++ {
		x = (x >> 1) ^ (-(x & 1) & 0xD800000000000000)
	}
	sink = x
}

//go:noinline
func serveStatic(n int) {
	burn(n / 4)
	compress(3 * n / 4)
}

//go:noinline
func compress(n int) {
	x := sink
	for i := 0; i < n; i++ {
		x = x*31 + uint64(i)
	}
	sink = x
}

//go:noinline
func handleAPI(n int) {
	parseRequest(n)
	lookupUser(2 * n)
	renderPage(3 * n)
}

//go:noinline
func backgroundGC(n int) { compress(n) }

func writeCPULabels(w *os.File) {
	if err := pprof.StartCPUProfile(w); err != nil {
		panic(err)
	}
	const n = 20000
	start := cpuSeconds()
	budget := 3.0
	var wg sync.WaitGroup
	run := func(labels pprof.LabelSet, work func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pprof.Do(context.Background(), labels, func(context.Context) {
				spinUntil(start, budget, work)
			})
		}()
	}
	run(pprof.Labels("region", "eu", "endpoint", "/api"), func() { handleAPI(n) })
	run(pprof.Labels("region", "us", "endpoint", "/api"), func() { handleAPI(n) })
	run(pprof.Labels("region", "eu", "endpoint", "/static"), func() { serveStatic(4 * n) })
	// Nested pprof.Do: the inner set adds a label to the outer one.
	wg.Add(1)
	go func() {
		defer wg.Done()
		pprof.Do(context.Background(), pprof.Labels("region", "us"), func(ctx context.Context) {
			pprof.Do(ctx, pprof.Labels("endpoint", "/static", "cache", "miss"), func(context.Context) {
				spinUntil(start, budget, func() { serveStatic(2 * n) })
			})
		})
	}()
	// No labels at all.
	spinUntil(start, budget, func() { backgroundGC(n) })
	wg.Wait()
	pprof.StopCPUProfile()
}

// ---------------------------------------------------------------------------
// cpu-inlined: small functions inlined into their callers, two levels deep,
// so that a location holds several line entries.

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

func mix(x, y uint64) uint64 {
	x ^= rotl(y, 23) * 0x9E3779B97F4A7C15
	return rotl(x, 31) ^ (x >> 29)
}

func finalize(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xFF51AFD7ED558CCD
	x ^= x >> 33
	return mix(x, 0xC4CEB9FE1A85EC53)
}

//go:noinline
func hashBlock(n int) uint64 {
	h := sink
	for i := 0; i < n; i++ {
		h = mix(h, uint64(i))
	}
	return finalize(h)
}

//go:noinline
func hashStream(n int) uint64 {
	h := sink
	for i := 0; i < n; i++ {
		h = finalize(h + uint64(i))
	}
	return h
}

//go:noinline
func checksum(n int) uint64 {
	var h uint64
	for i := 0; i < n; i++ {
		h += rotl(h^uint64(i), 5)
	}
	return h
}

func writeCPUInlined(w *os.File) {
	if err := pprof.StartCPUProfile(w); err != nil {
		panic(err)
	}
	start := cpuSeconds()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		spinUntil(start, 3.0, func() { sink += hashStream(50000) })
	}()
	spinUntil(start, 3.0, func() {
		sink += hashBlock(60000)
		sink += checksum(40000)
	})
	wg.Wait()
	pprof.StopCPUProfile()
}

// ---------------------------------------------------------------------------
// cpu-recursion: direct (fib) and mutual (isEven/isOdd) recursion, so that
// one function appears many times in a single stack.

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func isEven(n int) bool {
	for i := 0; i < 300; i++ {
		sink = sink*3 + 1
	}
	if n == 0 {
		return true
	}
	return isOdd(n - 1)
}

//go:noinline
func isOdd(n int) bool {
	for i := 0; i < 300; i++ {
		sink = sink*5 + 3
	}
	if n == 0 {
		return false
	}
	return isEven(n - 1)
}

//go:noinline
func walkTree(depth int) int {
	for i := 0; i < 200; i++ {
		sink ^= sink<<3 + uint64(depth)
	}
	if depth == 0 {
		return int(burn(2000) & 1)
	}
	return walkTree(depth-1) + walkTree(depth-1)
}

func writeCPURecursion(w *os.File) {
	if err := pprof.StartCPUProfile(w); err != nil {
		panic(err)
	}
	start := cpuSeconds()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		spinUntil(start, 3.0, func() { sink += uint64(fib(27)) })
	}()
	spinUntil(start, 3.0, func() {
		for i := 0; i < 40; i += 7 {
			if isEven(i) {
				sink++
			}
		}
		sink += uint64(walkTree(6))
	})
	wg.Wait()
	pprof.StopCPUProfile()
}

// ---------------------------------------------------------------------------
// heap: allocations in several functions, some kept alive, some freed.

type record struct {
	id    int
	name  string
	score [6]float64
}

var (
	keptRecords []*record
	keptBuffers [][]byte
	keptIndex   map[string]int
	keptNames   []string
)

//go:noinline
func newRecord(i int) *record {
	return &record{id: i}
}

//go:noinline
func loadRecords(n int) {
	for i := 0; i < n; i++ {
		r := newRecord(i)
		if i%2 == 0 {
			keptRecords = append(keptRecords, r)
		}
	}
}

//go:noinline
func makeBuffer(size int) []byte {
	return make([]byte, size)
}

//go:noinline
func readChunks(n, size int) {
	for i := 0; i < n; i++ {
		b := makeBuffer(size)
		b[0] = byte(i)
		if i%4 == 0 {
			keptBuffers = append(keptBuffers, b)
		}
	}
}

//go:noinline
func buildIndex(n int) {
	keptIndex = make(map[string]int)
	for i := 0; i < n; i++ {
		keptIndex[fmt.Sprintf("key-%04d", i)] = i
	}
}

//go:noinline
func joinNames(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("name-")
		b.WriteByte(byte('a' + i%26))
	}
	return b.String()
}

//go:noinline
func scratch(n int) int {
	total := 0
	for i := 0; i < n; i++ {
		s := make([]int, 32)
		s[i%32] = i
		total += len(s)
	}
	return total
}

func writeHeap(w *os.File) {
	loadRecords(2000)
	readChunks(64, 4096)
	readChunks(4, 1<<20)
	buildIndex(500)
	for i := 0; i < 10; i++ {
		keptNames = append(keptNames, joinNames(100))
	}
	sink += uint64(scratch(1000))
	// The heap profile reports the heap as of the last completed GC.
	runtime.GC()
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(w, 0); err != nil {
		panic(err)
	}
	runtime.KeepAlive(keptRecords)
	runtime.KeepAlive(keptBuffers)
	runtime.KeepAlive(keptIndex)
	runtime.KeepAlive(keptNames)
}

// ---------------------------------------------------------------------------
// cpu-spans: work in two spans of two traces, with the pprof labels that
// OpenTelemetry integrations set (span_id, span_name, trace_id), and work
// outside any span: Pyroscope's traces-to-profiles data.

const (
	spanAPI     = "9a517183f26a089d"
	spanStatic  = "5a4fe264a9c987fe"
	traceAPI    = "7c9e66797425440de944be07fc1f90ae"
	traceStatic = "0af7651916cd43dd8448eb211c80319c"
)

func writeCPUSpans(w *os.File) {
	if err := pprof.StartCPUProfile(w); err != nil {
		panic(err)
	}
	const n = 20000
	start := cpuSeconds()
	budget := 3.0
	var wg sync.WaitGroup
	span := func(id, name, trace string, work func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			labels := pprof.Labels("span_id", id, "span_name", name, "trace_id", trace)
			pprof.Do(context.Background(), labels, func(context.Context) {
				spinUntil(start, budget, work)
			})
		}()
	}
	span(spanAPI, "GET /api", traceAPI, func() { handleAPI(n) })
	span(spanStatic, "GET /static", traceStatic, func() { serveStatic(4 * n) })
	// Outside any span.
	spinUntil(start, budget, func() { backgroundGC(n) })
	wg.Wait()
	pprof.StopCPUProfile()
}

// ---------------------------------------------------------------------------

var writers = []struct {
	name  string
	write func(*os.File)
}{
	{"cpu-labels", writeCPULabels},
	{"heap", writeHeap},
	{"cpu-inlined", writeCPUInlined},
	{"cpu-recursion", writeCPURecursion},
}

// Written only on request, into their own folder:
//
//	go run . -out ../fixtures/spans -write cpu-spans
var extraWriters = []struct {
	name  string
	write func(*os.File)
}{
	{"cpu-spans", writeCPUSpans},
}

func writeOne(out, name string) {
	for _, wr := range append(writers, extraWriters...) {
		if wr.name != name {
			continue
		}
		if name == "heap" {
			// Record every allocation, so the values are exact counts
			// and sizes rather than sampled estimates.
			runtime.MemProfileRate = 1
		}
		path := filepath.Join(out, name+".pb.gz")
		f, err := os.Create(path)
		if err != nil {
			panic(err)
		}
		wr.write(f)
		if err := f.Close(); err != nil {
			panic(err)
		}
		return
	}
	fmt.Fprintf(os.Stderr, "unknown profile %q\n", name)
	os.Exit(2)
}

func main() {
	out := flag.String("out", filepath.Join("..", "fixtures", "go"), "output folder")
	only := flag.String("write", "", "write only this profile, in this process")
	flag.Parse()

	if *only != "" {
		writeOne(*out, *only)
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		panic(err)
	}
	self, err := os.Executable()
	if err != nil {
		panic(err)
	}
	for _, wr := range writers {
		cmd := exec.Command(self, "-out", *out, "-write", wr.name)
		cmd.Stdout = os.Stdout
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", wr.name, err)
			os.Exit(1)
		}
		fmt.Printf("wrote %s\n", filepath.Join(*out, wr.name+".pb.gz"))
	}
}
