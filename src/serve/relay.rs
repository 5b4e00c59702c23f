//! A player relayed to a room on another server sharing the database
//! (docs/SERVE.md, "One lobby across servers").
//!
//! The room's server owns the room and runs its race; the player's own
//! server only carries bytes. It logs in to the room's server at its
//! `--peer` address as an SSH client, with the host key the servers share
//! (each checks the other's against its own: a server without that key
//! can neither take nor make relays), and opens a session for the player
//! as their terminal would: a pty of their size, `NO_COLOR` if they set
//! it, and, trusted only from a server, who they are (`SKID_IDENTITY`)
//! and the room they join (`SKID_ROOM`), their name as the user. Then
//! the player's bytes go one way as they arrive, whole keys or pieces of
//! them (the room's server reads them with the same keyboard parser as a
//! direct player's), and the frames come back as they were drawn, each
//! through the SSH channel's flow control.
//!
//! Every queue is bounded. Frames are read from the room's server only
//! while the player's connection takes them: a player who stops reading
//! is a slow client of the room's server (which skips frames for them, as
//! for any), not a growing queue here. Their keys are passed on whatever
//! the frames do, through a queue of [`KEYS_QUEUED`] packets; a room's
//! server that stops taking them fills it, and the relay ends, saying so.
//!
//! The room's server ends the session when the player leaves the room
//! (exit status 0) or for a reason it writes on the session's standard
//! error (shutting down, idle, the room gone): the player is back in
//! their own lobby, told why. A room's server that dies (its connection
//! ends, or three keepalives go unanswered) does the same. A player who
//! leaves drops the relay, whose connection closes, and the room's
//! server sees them go.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender as HubSender;
use std::time::Duration;

use russh::client::{self, Handle};
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKey, PublicKeyOrCertificate};
use russh::{ChannelMsg, Disconnect};
use tokio::runtime::Handle as Runtime;
use tokio::sync::{mpsc, oneshot};

use super::messages::{Out, ToHub};
use super::room::PlayerId;

/// The environment variable a relay names the player's key by.
pub const IDENTITY_VAR: &str = "SKID_IDENTITY";
/// The environment variable a relay names the room it joins by.
pub const ROOM_VAR: &str = "SKID_ROOM";

/// How long a relay has to reach the room's server and be let in.
pub const CONNECT_SECONDS: u64 = 5;

/// The player's packets (keys, a resize) a relay holds for the room's
/// server at the most: a second of a fast typist's, many times over.
pub const KEYS_QUEUED: usize = 256;

/// What the player is told when the room's server stopped taking their
/// keys ([`KEYS_QUEUED`], [`WRITE_WAIT`]).
const JAMMED: &str = "its server stopped taking your keys";

/// The longest a write to the room's server may wait for its window.
const WRITE_WAIT: Duration = Duration::from_secs(5);

/// What a relay needs of its server: where to run, the key it logs in
/// with, and the hub to tell when it is up and when it ends.
#[derive(Clone)]
pub struct Relays {
    pub runtime: Runtime,
    pub key: Arc<PrivateKey>,
    pub hub: HubSender<ToHub>,
}

/// Who is relayed where.
pub struct Trip {
    pub id: PlayerId,
    pub name: String,
    pub identity: Option<String>,
    pub size: (u16, u16),
    pub color: bool,
    /// The room's server's `--peer` address.
    pub peer: String,
    pub room: u32,
}

/// What the player's server passes on to a relay.
#[derive(Debug)]
pub enum ToRelay {
    /// Bytes the player typed.
    Bytes(Vec<u8>),
    /// Their terminal's new size.
    Resize((u16, u16)),
}

/// A relay under way, as the hub holds it: dropped, it ends.
pub struct Relay {
    to: mpsc::Sender<ToRelay>,
    /// Set when the queue to the room's server was full: the relay ends
    /// saying so ([`JAMMED`]).
    jammed: Arc<AtomicBool>,
    /// Whether it is up (the hub draws nothing of the player's then).
    pub up: bool,
    /// Where to, for the log: `room 3 on host/addr`.
    pub whereto: String,
}

impl Relay {
    /// Passes `what` on to the room's server, never waiting: a queue
    /// full ([`KEYS_QUEUED`]) ends the relay (the hub hears why from it).
    pub fn pass(&mut self, what: ToRelay) {
        if let Err(mpsc::error::TrySendError::Full(_)) = self.to.try_send(what) {
            self.jammed.store(true, Ordering::Relaxed);
            // The last sender gone, the relay's loop ends.
            self.to = mpsc::channel(1).0;
        }
    }
}

impl Relays {
    /// Starts relaying `ask`'s player on the runtime; the hub hears
    /// `RelayUp` once the room's server let them in, and `RelayEnded`
    /// when it ends, however it ends.
    pub fn start(&self, ask: Trip, whereto: String) -> Relay {
        let (to, from_hub) = mpsc::channel(KEYS_QUEUED);
        let (key, hub) = (self.key.clone(), self.hub.clone());
        let jammed = Arc::new(AtomicBool::new(false));
        let told = jammed.clone();
        self.runtime.spawn(async move {
            let id = ask.id;
            let why = run(ask, key, hub.clone(), from_hub).await;
            let why = if told.load(Ordering::Relaxed) {
                Some(JAMMED.to_string())
            } else {
                why
            };
            let _ = hub.send(ToHub::RelayEnded { id, why });
        });
        Relay {
            to,
            jammed,
            up: false,
            whereto,
        }
    }
}

/// Checks the room's server's key against the key this server has: the
/// servers of one game share it.
struct Peer {
    key: PublicKey,
}

impl client::Handler for Peer {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(matches!(key, PublicKeyOrCertificate::PublicKey { key, .. }
            if key.key_data() == self.key.key_data()))
    }
}

/// The relay from login to end: none if the player only left the room,
/// else why it ended, for their lobby.
async fn run(
    ask: Trip,
    key: Arc<PrivateKey>,
    hub: HubSender<ToHub>,
    mut from_hub: mpsc::Receiver<ToRelay>,
) -> Option<String> {
    let within = Duration::from_secs(CONNECT_SECONDS);
    let opened = tokio::time::timeout(within, open(&ask, key)).await;
    let (handle, channel) = match opened {
        Ok(Ok(both)) => both,
        Ok(Err(failed)) => {
            // The operator's to read in full; the player's in a line.
            eprintln!(
                "skid serve: relay of player {} to {}: {}",
                ask.id, ask.peer, failed.detail
            );
            return Some(failed.why.into());
        }
        Err(_) => return Some("its server did not answer".into()),
    };
    let (frames, given) = oneshot::channel();
    let _ = hub.send(ToHub::RelayUp { id: ask.id, frames });
    let Ok(out) = given.await else {
        // The player went meanwhile.
        hang_up(&handle).await;
        return None;
    };
    let (mut read, write) = channel.split();
    let mut said = String::new();
    let mut status = None;
    // The room's server is read all the time (a channel left unread
    // holds up the whole connection: the player's keys and the
    // keepalives too). A frame the player's connection has no room for
    // is dropped, and so is every one after it until there is room
    // again; then the room's server is asked for the screen whole (a
    // window change to the size it has), as it redraws a slow client's.
    let mut size = ask.size;
    let mut behind = false;
    let ended = loop {
        tokio::select! {
            room = out.reserve(), if behind => {
                let Ok(room) = room else { break None };
                drop(room);
                behind = false;
                let (w, h) = size;
                let asked = write.window_change(w.into(), h.into(), 0, 0);
                let _ = tokio::time::timeout(WRITE_WAIT, asked).await;
            },
            msg = read.wait() => match msg {
                Some(ChannelMsg::Data { data }) if !behind => {
                    match out.try_send(Out::Frame(data.to_vec())) {
                        Ok(()) => {}
                        Err(mpsc::error::TrySendError::Full(_)) => behind = true,
                        Err(mpsc::error::TrySendError::Closed(_)) => break None,
                    }
                }
                Some(ChannelMsg::ExtendedData { data, ext: 1 }) => {
                    said.push_str(&String::from_utf8_lossy(&data));
                }
                Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
                Some(ChannelMsg::Close) | None => break Some(()),
                Some(_) => {}
            },
            typed = from_hub.recv() => match typed {
                Some(ToRelay::Bytes(bytes)) => {
                    match tokio::time::timeout(WRITE_WAIT, write.data_bytes(bytes)).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break Some(()),
                        Err(_) => {
                            said = JAMMED.into();
                            break Some(());
                        }
                    }
                }
                Some(ToRelay::Resize((w, h))) => {
                    size = (w, h);
                    let asked = write.window_change(w.into(), h.into(), 0, 0);
                    let _ = tokio::time::timeout(WRITE_WAIT, asked).await;
                }
                // The player left: the relay's connection goes with them.
                None => break None,
            },
        }
    };
    hang_up(&handle).await;
    ended?;
    let said = said.trim();
    match status {
        Some(0) => None,
        _ if !said.is_empty() => Some(said.to_string()),
        _ => Some("its server went away".into()),
    }
}

/// Ends the relay's connection, waiting a second at the most.
async fn hang_up(handle: &Handle<Peer>) {
    let bye = handle.disconnect(Disconnect::ByApplication, "", "");
    let _ = tokio::time::timeout(Duration::from_secs(1), bye).await;
}

/// Why a relay could not open: a few words for the player, and what
/// failed for the log.
struct Failed {
    why: &'static str,
    detail: String,
}

/// Logs in to the room's server as the player's server and opens the
/// player's session there.
async fn open(
    ask: &Trip,
    key: Arc<PrivateKey>,
) -> Result<(Handle<Peer>, russh::Channel<client::Msg>), Failed> {
    let config = Arc::new(client::Config {
        // A room's server that stops answering is found by keepalives.
        keepalive_interval: Some(Duration::from_secs(5)),
        keepalive_max: 3,
        inactivity_timeout: None,
        nodelay: true,
        window_size: 256 * 1024,
        ..Default::default()
    });
    let peer = Peer {
        key: key.public_key().clone(),
    };
    let text = |e: russh::Error| Failed {
        why: "could not join",
        detail: e.to_string(),
    };
    let connected = client::connect(config, ask.peer.as_str(), peer).await;
    let mut handle = connected.map_err(|e| match e {
        russh::Error::UnknownKey => Failed {
            why: "its server has another host key",
            detail: "its host key is not this server's (servers that relay share one)".into(),
        },
        russh::Error::IO(e) => Failed {
            why: "its server cannot be reached",
            detail: e.to_string(),
        },
        e => text(e),
    })?;
    let signed = PrivateKeyWithHashAlg::new(key, None);
    let auth = (handle.authenticate_publickey(&ask.name, signed).await).map_err(text)?;
    if !auth.success() {
        return Err(Failed {
            why: "its server refused this one",
            detail: "the host key was refused at its --peer address".into(),
        });
    }
    let channel = handle.channel_open_session().await.map_err(text)?;
    if !ask.color {
        channel
            .set_env(false, "NO_COLOR", "1")
            .await
            .map_err(text)?;
    }
    if let Some(identity) = &ask.identity {
        (channel
            .set_env(false, IDENTITY_VAR, identity.as_str())
            .await)
            .map_err(text)?;
    }
    let room = ask.room.to_string();
    channel.set_env(false, ROOM_VAR, room).await.map_err(text)?;
    let (w, h) = ask.size;
    (channel
        .request_pty(false, "xterm-256color", w.into(), h.into(), 0, 0, &[])
        .await)
        .map_err(text)?;
    channel.request_shell(true).await.map_err(text)?;
    Ok((handle, channel))
}
