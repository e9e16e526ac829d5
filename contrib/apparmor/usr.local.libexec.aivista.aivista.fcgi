# AppArmor profile for the AiVista worker, installed with the default
# prefix (/usr/local). Copy it to /etc/apparmor.d/ (its name is the
# binary's path with dots), adapt the paths (the package's worker is
# /usr/lib/aivista/aivista.fcgi, its data /usr/share/aivista), then
# "apparmor_parser -r /etc/apparmor.d/usr.local.libexec.aivista.aivista.fcgi".
# Start it in complain mode ("aa-complain") and read the log before
# enforcing it.
#
# What the worker does: reads its configuration and data files, writes
# the Berkeley DB store (the state directory), listens on the socket it is
# given or a unix socket of its own, and calls model providers over HTTPS
# (outbound TCP, DNS). It runs nothing else.
abi <abi/3.0>,
include <tunables/global>

profile aivista.fcgi /usr/local/libexec/aivista/aivista.fcgi {
  include <abstractions/base>
  include <abstractions/nameservice>
  include <abstractions/openssl>
  include <abstractions/ssl_certs>

  # The worker itself (the prefork parent re-runs it when it takes over).
  /usr/local/libexec/aivista/aivista.fcgi mrix,

  # Configuration and data.
  /usr/local/etc/aivista.conf r,
  /etc/aivista.conf r,
  /usr/local/share/aivista/** r,
  /usr/share/aivista/** r,
  /usr/share/icu/** r,
  /usr/share/mime/** r,
  /usr/share/fonts/** r,
  /etc/fonts/** r,
  /var/cache/fontconfig/** r,

  # The store: the state directory, read and written.
  /var/lib/aivista/ rw,
  /var/lib/aivista/** rwk,
  /usr/local/var/lib/aivista/ rw,
  /usr/local/var/lib/aivista/** rwk,

  # Sockets: its own (-l PATH) and the web server's.
  /run/aivista/ r,
  /run/aivista/** rw,
  unix (create, bind, listen, accept, connect, send, receive, getattr, setattr, getopt, setopt, shutdown),
  network inet stream,
  network inet6 stream,
  network inet dgram,
  network inet6 dgram,

  # The process table (failchk asks whether a pid is alive) and memory.
  @{PROC}/@{pid}/stat r,
  @{PROC}/sys/kernel/random/uuid r,
  /dev/urandom r,
  signal (receive) set=(term, int, usr1, usr2, kill, hup, rtmin+0),
  signal (send) peer=aivista.fcgi,
}
