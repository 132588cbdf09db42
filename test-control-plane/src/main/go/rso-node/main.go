// rso-node: the small programs a real test node needs that its distribution packages do not give.
//
//	rso-node pause                   PID 1 of the node's PID namespace, and the pod sandbox's
//	                                 process: reaps orphans, exits on SIGTERM or SIGINT
//	rso-node forward LISTEN CONNECT  copies each connection to LISTEN to a new one to CONNECT;
//	                                 each is tcp:HOST:PORT or unix:PATH (the node's network
//	                                 namespace reaches the test's loopback API server this way)
//	rso-node stdio CONNECT           one connection on stdin/stdout, copied to a new one to
//	                                 CONNECT (qemu's guestfwd runs it per guest connection)
//	rso-node get URL                 HTTP GET from inside the node's network namespace; prints
//	                                 the body, exits 1 unless the answer is 200
//	rso-node serve LISTEN RATE       a stand-in storage target: writes RATE bytes per second to
//	                                 every connection (a read stream, as NVMe/TCP reads look)
//	rso-node read CONNECT            its initiator: connects and reads until the target stops
//
// Static (CGO_ENABLED=0) so it runs in an image of its own and in any mount namespace.
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "pause":
		pause()
	case "forward":
		if len(os.Args) != 4 {
			usage()
		}
		forward(os.Args[2], os.Args[3])
	case "stdio":
		if len(os.Args) != 3 {
			usage()
		}
		stdio(os.Args[2])
	case "get":
		if len(os.Args) != 3 {
			usage()
		}
		get(os.Args[2])
	case "serve":
		if len(os.Args) != 4 {
			usage()
		}
		rate, err := strconv.Atoi(os.Args[3])
		if err != nil || rate <= 0 {
			usage()
		}
		serve(os.Args[2], rate)
	case "read":
		if len(os.Args) != 3 {
			usage()
		}
		read(os.Args[2])
	default:
		usage()
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: rso-node pause | forward tcp:HOST:PORT|unix:PATH tcp:HOST:PORT|unix:PATH | get URL"+
		" | stdio tcp:HOST:PORT | serve tcp:HOST:PORT BYTES_PER_SECOND | read tcp:HOST:PORT")
	os.Exit(2)
}

// pause waits for SIGTERM/SIGINT and reaps every child that exits meanwhile: as PID 1 it inherits
// the orphans of its namespace (containerd's shims, their containers' leftovers).
func pause() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}

func endpoint(spec string) (network, address string) {
	network, address, ok := strings.Cut(spec, ":")
	if !ok || (network != "tcp" && network != "unix") {
		fmt.Fprintf(os.Stderr, "rso-node: %q is neither tcp:HOST:PORT nor unix:PATH\n", spec)
		os.Exit(2)
	}
	return network, address
}

func forward(listen, connect string) {
	listenNet, listenAddr := endpoint(listen)
	connectNet, connectAddr := endpoint(connect)
	if listenNet == "unix" {
		os.Remove(listenAddr)
	}
	listener, err := net.Listen(listenNet, listenAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rso-node forward:", err)
		os.Exit(1)
	}
	// the test reads this line to know the listener is up
	fmt.Println("listening on", listen)
	for {
		in, err := listener.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "rso-node forward:", err)
			os.Exit(1)
		}
		go func() {
			defer in.Close()
			out, err := net.DialTimeout(connectNet, connectAddr, 10*time.Second)
			if err != nil {
				fmt.Fprintln(os.Stderr, "rso-node forward:", err)
				return
			}
			defer out.Close()
			done := make(chan struct{}, 2)
			go func() { io.Copy(out, in); done <- struct{}{} }()
			go func() { io.Copy(in, out); done <- struct{}{} }()
			<-done
		}()
	}
}

func stdio(connect string) {
	network, address := endpoint(connect)
	out, err := net.DialTimeout(network, address, 10*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rso-node stdio:", err)
		os.Exit(1)
	}
	defer out.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(out, os.Stdin); done <- struct{}{} }()
	go func() { io.Copy(os.Stdout, out); done <- struct{}{} }()
	<-done
}

func get(url string) {
	client := http.Client{Timeout: 20 * time.Second}
	response, err := client.Get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rso-node get:", err)
		os.Exit(1)
	}
	defer response.Body.Close()
	io.Copy(os.Stdout, response.Body)
	if response.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "rso-node get:", response.Status)
		os.Exit(1)
	}
}

// serve writes rate bytes per second to every connection, in ten slices a second.
func serve(listen string, rate int) {
	network, address := endpoint(listen)
	listener, err := net.Listen(network, address)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rso-node serve:", err)
		os.Exit(1)
	}
	fmt.Println("listening on", listen)
	slice := make([]byte, (rate+9)/10)
	for {
		conn, err := listener.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "rso-node serve:", err)
			os.Exit(1)
		}
		go func() {
			defer conn.Close()
			for range time.Tick(100 * time.Millisecond) {
				if _, err := conn.Write(slice); err != nil {
					return
				}
			}
		}()
	}
}

func read(connect string) {
	network, address := endpoint(connect)
	conn, err := net.DialTimeout(network, address, 10*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rso-node read:", err)
		os.Exit(1)
	}
	fmt.Println("connected to", connect)
	n, _ := io.Copy(io.Discard, conn)
	fmt.Println("read", n, "bytes")
}
