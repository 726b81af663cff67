package daemon

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// LAN mode (`skiffd serve --lan`) lends the web client, and nothing else, to devices on the
// local network (a phone): over HTTPS only, on addresses of the local networks only (never
// 0.0.0.0), on a port of its own. MCP, the extension's link and /status stay on loopback. A
// device pairs with a code that `skiffd open --lan` shows as a QR code, which works once and
// for LANCodeTTL; its cookie is Secure as well as HttpOnly and SameSite=Strict.
//
// The certificate is the user's (--cert, --key: one their phone trusts, from mkcert say) or,
// by default, one skiffd makes for itself and keeps beside its configuration. A self-signed
// certificate is trust on first use: the phone warns, and the fingerprint `skiffd open --lan`
// prints is what the user compares before going on.

// LANCodeTTL is how long a LAN pairing code waits to be used.
const LANCodeTTL = 2 * time.Minute

// LAN is the web client's place on the local network.
type LAN struct {
	// Hosts are the addresses a device reaches skiffd by (IP literals or names); the QR code
	// names the first.
	Hosts []string
	Port  int
	Cert  tls.Certificate

	listeners []net.Listener
}

// LANAddrs are this machine's private IPv4 addresses on the interfaces that are up, loopback
// excluded: the addresses a phone on the same Wi-Fi reaches.
func LANAddrs() []string {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []string
	for _, i := range ifs {
		if i.Flags&net.FlagUp == 0 || i.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, _ := i.Addrs()
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			if ip := n.IP.To4(); ip != nil && ip.IsPrivate() {
				out = append(out, ip.String())
			}
		}
	}
	return out
}

// ListenLAN opens port on each of addrs (not on every interface) for the web client, with the
// certificate in certFile and keyFile, or with skiffd's own (LANCert) when both are empty.
func ListenLAN(cfg *Config, addrs []string, port int, certFile, keyFile string) (*LAN, error) {
	if len(addrs) == 0 {
		return nil, errors.New("this computer has no address on a local network (no private IPv4 on an interface that is up): name one with --lan-addr")
	}
	for _, a := range addrs {
		switch ip := net.ParseIP(a); {
		case ip == nil:
			return nil, fmt.Errorf("--lan-addr %q is not an IP address of this computer", a)
		case ip.IsUnspecified(): // every interface, the Internet's among them
			return nil, fmt.Errorf("--lan-addr %s would serve every network this computer is on: name the local network's address", a)
		}
	}
	l := &LAN{Hosts: addrs, Port: port}
	var err error
	switch {
	case certFile != "" || keyFile != "":
		l.Cert, err = tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("the certificate for --lan (%s, %s): %w", certFile, keyFile, err)
		}
	default:
		l.Cert, err = LANCert(cfg.Dir(), addrs)
		if err != nil {
			return nil, err
		}
	}
	for _, a := range addrs {
		ln, err := net.Listen("tcp", net.JoinHostPort(a, strconv.Itoa(port)))
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("skiffd cannot listen on %s (%v): choose another port with --lan-port", net.JoinHostPort(a, strconv.Itoa(port)), err)
		}
		l.listeners = append(l.listeners, tls.NewListener(ln, &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{l.Cert}}))
	}
	if port == 0 && len(l.listeners) > 0 { // tests: the port the system chose for the first address
		l.Port = l.listeners[0].Addr().(*net.TCPAddr).Port
	}
	return l, nil
}

// Close closes the LAN's listeners.
func (l *LAN) Close() {
	for _, ln := range l.listeners {
		_ = ln.Close()
	}
}

// URL is the web client's address on the LAN, for its first host.
func (l *LAN) URL() string {
	return "https://" + net.JoinHostPort(l.Hosts[0], strconv.Itoa(l.Port)) + "/app/"
}

// Fingerprint is the certificate's SHA-256, as browsers show it (AB:CD:…).
func (l *LAN) Fingerprint() string {
	if len(l.Cert.Certificate) == 0 {
		return ""
	}
	sum := sha256.Sum256(l.Cert.Certificate[0])
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// SelfSigned reports whether the certificate is skiffd's own (its issuer is itself).
func (l *LAN) SelfSigned() bool {
	c, err := x509.ParseCertificate(l.Cert.Certificate[0])
	return err == nil && bytes.Equal(c.RawIssuer, c.RawSubject)
}

// The files of skiffd's own LAN certificate, beside its configuration.
const (
	lanCertFile = "lan-cert.pem"
	lanKeyFile  = "lan-key.pem"
)

// LANCert is skiffd's own certificate for hosts, kept in dir (the key readable by its owner
// only). The one there is used while it names every host and has more than 30 days left;
// otherwise a new one is made (and the phone's browser warns again).
func LANCert(dir string, hosts []string) (tls.Certificate, error) {
	certPath, keyPath := filepath.Join(dir, lanCertFile), filepath.Join(dir, lanKeyFile)
	if c, err := tls.LoadX509KeyPair(certPath, keyPath); err == nil {
		if leaf, err := x509.ParseCertificate(c.Certificate[0]); err == nil && time.Until(leaf.NotAfter) > 30*24*time.Hour && names(leaf, hosts) {
			return c, nil
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	serial, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{Organization: []string{"skiffd"}, CommonName: "skiffd on " + hostname()},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(397 * 24 * time.Hour), // the longest a browser accepts for a server certificate
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return tls.Certificate{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		return tls.Certificate{}, err
	}
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return tls.Certificate{}, err
	}
	return tls.LoadX509KeyPair(certPath, keyPath)
}

// names reports whether a certificate names every host.
func names(c *x509.Certificate, hosts []string) bool {
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			if !slices.ContainsFunc(c.IPAddresses, ip.Equal) {
				return false
			}
		} else if !slices.Contains(c.DNSNames, h) {
			return false
		}
	}
	return true
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "this computer"
	}
	return h
}
