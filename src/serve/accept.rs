//! Connections from the accept to their end: each admitted by its
//! address ([`super::admission`]), behind a load balancer the address its
//! PROXY header names ([`super::proxy`]), then one SSH session, which
//! must reach the lobby within the login deadline of the accept.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Instant;

use super::admission::{Admission, Refused, Ticket};
use super::hub::ToHub;
use super::{proxy, ssh};

/// What every connection is admitted and served by.
pub struct Doors {
    config: Arc<russh::server::Config>,
    hub: mpsc::Sender<ToHub>,
    admission: Arc<Admission>,
    /// From the accept to the lobby, at the most.
    login: Duration,
    /// Whether connections begin with a PROXY header.
    proxied: bool,
    /// Places for connections still to send their PROXY header: as many
    /// as may wait to log in (`admission::pending_budget`), so silent
    /// sockets cannot pile up before they are counted by address.
    headers: Arc<Semaphore>,
    /// The next connection's number (a player's id in the hub), shared
    /// by every door of the server.
    next: Arc<AtomicU64>,
    /// The door for other servers' relays (`--peer`): the one key it
    /// lets in ([`ssh::Connection::relayed`]).
    peer: Option<russh::keys::PublicKey>,
}

impl Doors {
    pub fn new(
        config: Arc<russh::server::Config>,
        hub: mpsc::Sender<ToHub>,
        admission: Arc<Admission>,
        login: Duration,
        proxied: bool,
    ) -> Arc<Doors> {
        let waiting = admission.max_pending();
        Arc::new(Doors {
            config,
            hub,
            admission,
            login,
            proxied,
            headers: Arc::new(Semaphore::new(waiting)),
            next: Arc::new(AtomicU64::new(1)),
            peer: None,
        })
    }

    /// The door for other servers' relays beside these doors: the same
    /// hub and numbers, no PROXY header, its own counts (every relay
    /// comes from a few addresses), and only `key` let in.
    pub fn for_relays(
        &self,
        config: Arc<russh::server::Config>,
        admission: Arc<Admission>,
        key: russh::keys::PublicKey,
    ) -> Arc<Doors> {
        Arc::new(Doors {
            config,
            hub: self.hub.clone(),
            headers: Arc::new(Semaphore::new(admission.max_pending())),
            admission,
            login: self.login,
            proxied: false,
            next: self.next.clone(),
            peer: Some(key),
        })
    }

    /// Admits the connection `stream` of the client at `client` (named by
    /// the balancer at `via`, if any), within the limits, and serves it
    /// on a task of its own; or logs why not. Unless `logged`, its
    /// coming and going is not logged: a balancer's health check, every
    /// few seconds.
    fn admit(
        self: &Arc<Self>,
        stream: TcpStream,
        client: SocketAddr,
        via: Option<SocketAddr>,
        logged: bool,
        deadline: Instant,
    ) {
        let ticket = match self.admission.admit(client.ip()) {
            Ok(ticket) => ticket,
            Err(why) => {
                eprintln!("skid serve: {client} refused: {why}");
                return;
            }
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        if logged {
            let via = via.map(|v| format!(" (via {v})")).unwrap_or_default();
            let relay = if self.peer.is_some() {
                " (a relay)"
            } else {
                ""
            };
            eprintln!("skid serve: connection {id} from {client}{via}{relay}");
        }
        let doors = self.clone();
        tokio::spawn(async move {
            let mut handler = ssh::Connection::new(id, doors.hub.clone(), ticket.clone());
            if let Some(key) = &doors.peer {
                handler = handler.relayed(key.clone());
            }
            let why = serve_one(doors.config.clone(), stream, handler, &ticket, deadline).await;
            if logged {
                let why = why.map(|w| format!(": {w}")).unwrap_or_default();
                eprintln!("skid serve: connection {id} closed{why}");
            }
        });
    }

    /// Reads the PROXY header of `stream` from the balancer at `peer`,
    /// holding one of the places for headers (`place`), then admits it as
    /// the client it names (one that names none, as the balancer);
    /// closes it if none comes by `deadline`.
    async fn proxied(
        self: Arc<Self>,
        mut stream: TcpStream,
        peer: SocketAddr,
        place: OwnedSemaphorePermit,
        deadline: Instant,
    ) {
        let header = tokio::time::timeout_at(deadline, proxy::read_header(&mut stream)).await;
        drop(place);
        match header {
            Ok(Ok(Some(client))) => self.admit(stream, client, Some(peer), true, deadline),
            Ok(Ok(None)) => self.admit(stream, peer, None, false, deadline),
            Ok(Err(why)) => eprintln!("skid serve: {peer} refused: {why}"),
            Err(_) => eprintln!("skid serve: {peer} refused: no PROXY header in time"),
        }
    }
}

/// Accepts connections until told to stop, each within the limits
/// ([`admission`]); an accept error (out of file descriptors, a reset) is
/// logged and the loop goes on after a pause. The players' door, once
/// stopped, stops the hub.
pub async fn accept_loop(
    listener: TcpListener,
    doors: Arc<Doors>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let (stream, peer) = tokio::select! {
            _ = stop.changed() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("skid serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let deadline = Instant::now() + doors.login;
        if !doors.proxied {
            doors.admit(stream, peer, None, true, deadline);
            continue;
        }
        // A place to wait for its header in, or refused at once.
        match doors.headers.clone().try_acquire_owned() {
            Ok(place) => {
                tokio::spawn(doors.clone().proxied(stream, peer, place, deadline));
            }
            Err(_) => eprintln!("skid serve: {peer} refused: {}", Refused::Pending),
        }
    }
    if doors.peer.is_none() {
        let _ = doors.hub.send(ToHub::Shutdown);
    }
}

/// Bytes read from a connection's socket at once: several of the small
/// packets a player sends (a key is under a hundred bytes); a larger one
/// is read in parts.
const READ_BUFFER: usize = 2048;

/// One connection from its SSH's first byte to its end: it must have
/// joined the lobby by `deadline` (logged in, a pty, a shell), or it is
/// closed, whatever it did or left undone meanwhile. Returns why it was
/// closed before it began, or short of the lobby, for the log.
async fn serve_one(
    config: Arc<russh::server::Config>,
    stream: TcpStream,
    handler: ssh::Connection,
    ticket: &Ticket,
    deadline: Instant,
) -> Option<String> {
    let _ = stream.set_nodelay(true);
    // A second handle on the socket, to cut it whatever russh's session
    // is doing (a client stalled in the key exchange never reads a
    // disconnect message).
    let split = stream.into_std().and_then(|s| Ok((s.try_clone()?, s)));
    let (killer, stream) = match split {
        Ok(both) => both,
        Err(e) => return Some(e.to_string()),
    };
    let stream = match stream
        .set_nonblocking(true)
        .and_then(|()| tokio::net::TcpStream::from_std(stream))
    {
        Ok(stream) => stream,
        Err(e) => return Some(e.to_string()),
    };
    // russh reads a packet's length, then its rest, each with a read of
    // its own, then finds the socket empty with a third: read through a
    // buffer, a packet is one read, and tokio knows from its being short
    // that the socket is drained (one system call a key, not three).
    let stream = tokio::io::BufReader::with_capacity(READ_BUFFER, stream);
    let started =
        tokio::time::timeout_at(deadline, russh::server::run_stream(config, stream, handler));
    let session = match started.await {
        Ok(Ok(session)) => session,
        Ok(Err(russh::Error::Version)) => return Some(NOT_SSH.into()),
        Ok(Err(e)) => return Some(e.to_string()),
        Err(_) => return Some(LATE.into()),
    };
    let handle = session.handle();
    tokio::pin!(session);
    tokio::select! {
        _ = &mut session => return None,
        () = tokio::time::sleep_until(deadline) => {}
    }
    if !ticket.playing() {
        let _ = tokio::time::timeout(
            Duration::from_millis(200),
            handle.disconnect(russh::Disconnect::ByApplication, LATE.into(), String::new()),
        )
        .await;
        let _ = killer.shutdown(std::net::Shutdown::Both);
        let _ = tokio::time::timeout(Duration::from_secs(2), &mut session).await;
        return Some(LATE.into());
    }
    let _ = session.await;
    None
}

/// Why a connection that did not reach the lobby in time was closed.
const LATE: &str = "did not log in and open a terminal in time";

/// Why a connection that did not begin with SSH's version line was
/// closed: most likely, behind a balancer, a PROXY header the server was
/// not told to expect.
const NOT_SSH: &str =
    "it did not begin with SSH (a balancer's PROXY header wants --proxy-protocol)";
