// SPDX-License-Identifier: GPL-3.0-or-later

// A Go program that profiles itself with runtime/pprof and pushes the CPU
// profile to a Pyroscope server's /ingest as Pyroscope's Go SDK
// (grafana/pyroscope-go) sends it: a multipart form whose "profile" part
// is the gzipped pprof, with name, spyName, from and until in the URL.
// Only the standard library, so it builds without any module download.
//
//	go run . -server http://127.0.0.1:PORT -seconds 3
package main

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

var sink []byte

//go:noinline
func embersGoBusy(d time.Duration) {
	end := time.Now().Add(d)
	h := sha256.Sum256([]byte("embers"))
	for time.Now().Before(end) {
		h = sha256.Sum256(h[:])
	}
	sink = h[:]
}

func main() {
	server := flag.String("server", "", "Pyroscope server base URL")
	seconds := flag.Float64("seconds", 3, "how long to profile")
	flag.Parse()
	if *server == "" {
		fmt.Fprintln(os.Stderr, "gopush: -server is required")
		os.Exit(2)
	}

	var profile bytes.Buffer
	start := time.Now()
	if err := pprof.StartCPUProfile(&profile); err != nil {
		fmt.Fprintln(os.Stderr, "gopush:", err)
		os.Exit(1)
	}
	embersGoBusy(time.Duration(*seconds * float64(time.Second)))
	pprof.StopCPUProfile()
	end := time.Now()

	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	part, err := form.CreateFormFile("profile", "profile.pprof")
	if err == nil {
		_, err = part.Write(profile.Bytes())
	}
	if err == nil {
		err = form.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gopush:", err)
		os.Exit(1)
	}

	q := url.Values{}
	q.Set("name", "embers-go-sdk{env=test,process.runtime=go}")
	q.Set("spyName", "gospy")
	q.Set("sampleRate", "100")
	q.Set("from", strconv.FormatInt(start.Unix(), 10))
	q.Set("until", strconv.FormatInt(end.Unix(), 10))
	req, err := http.NewRequest("POST", *server+"/ingest?"+q.Encode(), &body)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gopush:", err)
		os.Exit(1)
	}
	req.Header.Set("Content-Type", form.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gopush:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(os.Stderr, "gopush: HTTP %d: %s\n", resp.StatusCode, answer)
		os.Exit(1)
	}
	fmt.Printf("pushed %d bytes of CPU profile\n", profile.Len())
}
