//! One SSH connection (russh's server [`Handler`]): who the player is, the
//! one shell session with its pty that they may open, and everything else
//! refused (docs/SERVE.md, "Who is who", "What a session may do", "Limits").
//!
//! Input bytes become key events here ([`Keyboard`]) and go to the hub
//! stamped with when they came; the hub's frames come back through a
//! channel of one frame and are written with the SSH channel's own flow
//! control ([`russh::ChannelWriteHalf::data_bytes`] waits for the client's
//! window), so a client that stops reading only stops its own frames.

use std::sync::Arc;
use std::sync::mpsc::Sender as HubSender;
use std::time::{Duration, Instant};

use russh::keys::{HashAlg, PublicKey};
use russh::server::{Auth, ChannelOpenHandle, Handler, Msg, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, MethodKind, MethodSet, Pty};
use tokio::sync::{mpsc, oneshot};

use super::admission::Ticket;
use super::messages::{Out, ToHub};
use super::names::display_name;
use super::relay;
use super::room::PlayerId;
use crate::input::keyboard::Keyboard;
use crate::race::session::screen_size;

/// Input a client may send in one second before it is cut off: far more
/// than any typist or autorepeat (50 keys a second of the longest kitty
/// reports is 2 KB), far less than a paste or a flood.
pub const INPUT_PER_SECOND: usize = 16 * 1024;

/// Bytes that parse as no key, since the connection opened, before the
/// client is cut off.
pub const GARBAGE_CAP: usize = 4096;

/// Window changes a client may send in one second before it is cut off:
/// more than a terminal sends while its window is dragged (one a frame of
/// the display), far fewer than a client can send. A window change is a
/// few bytes on the wire, and nothing else limited them: one client's
/// 1.4 million in 3 s left every other player without frames.
pub const RESIZES_PER_SECOND: usize = 120;

/// What one player sees when they connect without a pty.
pub const NEEDS_PTY: &str = "skid needs a terminal: connect with ssh -t\r\n";

/// A session channel before its shell: the pty's size once asked for,
/// and whether the client's environment asks for no colour.
struct Opened {
    channel: Channel<Msg>,
    pty: Option<(u16, u16)>,
    no_color: bool,
    /// On a relay from another server (`super::relay`): the player's key
    /// and the room they join, as that server names them.
    identity: Option<String>,
    room: Option<u32>,
}

/// One connection.
pub struct Connection {
    id: PlayerId,
    /// Where key events and the player's comings and goings go.
    hub: HubSender<ToHub>,
    user: String,
    /// The player's key fingerprint, or none for a guest.
    pub identity: Option<String>,
    /// The connection's place in the server's counts: pending until its
    /// shell joins the lobby (the accept loop's deadline reads it).
    ticket: Arc<Ticket>,
    /// The session channel, once opened, until its shell starts.
    channel: Option<Opened>,
    shell: bool,
    keyboard: Keyboard,
    /// Bytes of input in the current second.
    input: PerSecond,
    /// Window changes in the current second.
    resizes: PerSecond,
    /// Told (or dropped) when the client closes its session channel, for
    /// the frames' writer to hang up after.
    closed: Option<oneshot::Sender<()>>,
    /// On the door for other servers' relays (`--peer`): the one key let
    /// in, the servers' shared host key. Such a connection is a player
    /// of another server, who they are and the room they join said by
    /// it.
    peer: Option<PublicKey>,
}

/// A count over the current second, which begins at the first thing
/// counted a second or more after the last one began.
#[derive(Debug)]
struct PerSecond {
    began: Instant,
    count: usize,
}

impl Default for PerSecond {
    fn default() -> PerSecond {
        PerSecond {
            began: Instant::now(),
            count: 0,
        }
    }
}

impl PerSecond {
    /// Counts `n` more at `now`; the count in the current second.
    fn add(&mut self, now: Instant, n: usize) -> usize {
        if now.duration_since(self.began) >= Duration::from_secs(1) {
            *self = PerSecond {
                began: now,
                count: 0,
            };
        }
        self.count += n;
        self.count
    }
}

impl Connection {
    pub fn new(id: PlayerId, hub: HubSender<ToHub>, ticket: Arc<Ticket>) -> Connection {
        Connection {
            id,
            hub,
            user: String::new(),
            identity: None,
            ticket,
            channel: None,
            shell: false,
            // Mouse reports read: a player's editor asks for them (the
            // hub reads them nowhere else).
            keyboard: Keyboard::with_mouse(),
            input: PerSecond::default(),
            resizes: PerSecond::default(),
            closed: None,
            peer: None,
        }
    }

    /// A connection on the door for other servers' relays, which lets in
    /// only `key`.
    pub fn relayed(mut self, key: PublicKey) -> Connection {
        self.peer = Some(key);
        self
    }

    /// Takes a client that floods the server off it: out of the hub, and
    /// the connection closed saying `why`.
    fn cut_off(&mut self, why: &str, session: &mut Session) -> Result<(), russh::Error> {
        eprintln!("skid serve: player {} cut off: {why}", self.id);
        let _ = self.hub.send(ToHub::Leave { id: self.id });
        self.shell = false;
        session.disconnect(russh::Disconnect::ByApplication, why, "")
    }

    /// The session channel `channel`, if it is this connection's and its
    /// shell has not started (the shell takes it): where a pty's size or
    /// `NO_COLOR` may still be set.
    fn opened(&mut self, channel: ChannelId) -> Option<&mut Opened> {
        self.channel.as_mut().filter(|o| o.channel.id() == channel)
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        if self.shell {
            let _ = self.hub.send(ToHub::Leave { id: self.id });
        }
    }
}

/// Writes the hub's frames to the channel until the hub closes it, then
/// gives the terminal back and closes the connection once the client
/// closed its side (`closed`). A relayed player's terminal is their own
/// server's to take over and give back: to a relay, the frames alone,
/// and at the end why, on standard error, with status 0 if they only
/// left the room.
async fn send_frames(
    channel: Channel<Msg>,
    handle: russh::server::Handle,
    mut frames: mpsc::Receiver<Out>,
    closed: oneshot::Receiver<()>,
    relayed: bool,
) {
    // The channel's own copy of what the client sends is not needed (the
    // handler gets it): dropped, so russh's copy of each key fails at once
    // rather than waking a task that throws it away.
    let (_, write) = channel.split();
    let first = crate::console::take_over();
    if !relayed && write.data_bytes(first).await.is_err() {
        return;
    }
    let why = loop {
        match frames.recv().await {
            Some(Out::Frame(bytes)) => {
                if write.data_bytes(bytes).await.is_err() {
                    return;
                }
            }
            Some(Out::Close(why)) => break why,
            None => break String::from("disconnected"),
        }
    };
    let mut last = crate::console::RESTORE.to_vec();
    last.extend_from_slice(format!("skid: {why}\r\n").as_bytes());
    // The terminal back, the exit status, then the channel closed; the
    // client closes its side and hangs up. One that stopped reading is
    // not waited for long: after 2 s it is disconnected.
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        if relayed {
            let left = why == super::hub::LEFT_ROOM;
            let _ = write.extended_data_bytes(1, why.clone().into_bytes()).await;
            let _ = write.exit_status(u32::from(!left)).await;
        } else {
            let _ = write.data_bytes(last).await;
            let _ = write.exit_status(0).await;
        }
        let _ = write.eof().await;
        let _ = write.close().await;
        let _ = closed.await;
    })
    .await;
    let _ = handle
        .disconnect(russh::Disconnect::ByApplication, why, String::new())
        .await;
}

impl Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        // Offer the two ways in: a key (the player's identity) or, for
        // someone without one, keyboard-interactive with no prompt; to
        // another server, its key alone.
        let mut methods = MethodSet::empty();
        methods.push(MethodKind::PublicKey);
        if self.peer.is_none() {
            methods.push(MethodKind::KeyboardInteractive);
        }
        Ok(Auth::Reject {
            proceed_with_methods: Some(methods),
            partial_success: false,
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.user = user.to_string();
        if let Some(peer) = &self.peer {
            // Another server, for one of its players (who they are comes
            // with the session), or nobody.
            if key.public_key.key_data() != peer.key_data() {
                return Ok(Auth::reject());
            }
            self.identity = None;
            return Ok(Auth::Accept);
        }
        self.identity = Some(key.public_key.fingerprint(HashAlg::Sha256).to_string());
        Ok(Auth::Accept)
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        if self.peer.is_some() {
            return Ok(Auth::reject());
        }
        self.user = user.to_string();
        self.identity = None;
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One session per connection.
        if self.channel.is_some() || self.shell {
            return Ok(());
        }
        reply.accept().await;
        self.channel = Some(Opened {
            channel,
            pty: None,
            no_color: false,
            identity: None,
            room: None,
        });
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        _term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.opened(channel) {
            Some(o) => {
                o.pty = Some(screen_size(col_width, row_height));
                session.channel_success(channel)
            }
            None => session.channel_failure(channel),
        }
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(opened) = self.channel.take().filter(|o| o.channel.id() == channel) else {
            return session.channel_failure(channel);
        };
        session.channel_success(channel)?;
        let Some(size) = opened.pty else {
            // No pty: one line, then closed.
            session.data(channel, NEEDS_PTY.as_bytes().to_vec())?;
            session.exit_status_request(channel, 1)?;
            session.eof(channel)?;
            return session.close(channel);
        };
        if self.peer.is_some() && opened.room.is_none() {
            // A relay names the room it joins; this door has no lobby.
            session.data(channel, b"skid: no room named\r\n".to_vec())?;
            session.exit_status_request(channel, 1)?;
            session.eof(channel)?;
            return session.close(channel);
        }
        if let Err(why) = self.ticket.play() {
            if self.peer.is_some() {
                // For the relay to tell its player (its screen is theirs).
                session.extended_data(channel, 1, why.to_string().into_bytes())?;
            } else {
                session.data(channel, format!("skid: {why}\r\n").into_bytes())?;
            }
            session.exit_status_request(channel, 1)?;
            session.eof(channel)?;
            session.close(channel)?;
            return session.disconnect(russh::Disconnect::ByApplication, &why.to_string(), "");
        }
        let (out, frames) = mpsc::channel(1);
        let join = ToHub::Join {
            id: self.id,
            name: display_name(&self.user),
            identity: opened.identity.or_else(|| self.identity.clone()),
            size,
            color: !opened.no_color,
            room: opened.room,
            out,
        };
        if self.hub.send(join).is_err() {
            return session.close(channel);
        }
        self.shell = true;
        let (closing, closed) = oneshot::channel();
        self.closed = Some(closing);
        tokio::spawn(send_frames(
            opened.channel,
            session.handle(),
            frames,
            closed,
            self.peer.is_some(),
        ));
        Ok(())
    }

    async fn data(
        &mut self,
        _channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.shell {
            return Ok(());
        }
        let now = Instant::now();
        let input = self.input.add(now, data.len());
        let events = self.keyboard.feed(data);
        if input > INPUT_PER_SECOND || self.keyboard.garbage > GARBAGE_CAP {
            self.cut_off("too much input: disconnected", session)?;
            return Ok(());
        }
        // Every packet goes to the hub, keys read from it or none: a
        // relayed player's bytes are passed on as they came, and the room's
        // server reads a key split across packets whole.
        let _ = self.hub.send(ToHub::Input {
            id: self.id,
            events,
            bytes: data.to_vec(),
            at: now,
        });
        Ok(())
    }

    /// The client closed its session channel: the player leaves (and the
    /// hub's goodbye closes the connection).
    async fn channel_close(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if std::mem::take(&mut self.shell) {
            let _ = self.hub.send(ToHub::Leave { id: self.id });
        }
        if let Some(closed) = self.closed.take() {
            let _ = closed.send(());
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.shell {
            if self.resizes.add(Instant::now(), 1) > RESIZES_PER_SECOND {
                self.cut_off("too many window changes: disconnected", session)?;
                return Ok(());
            }
            let size = screen_size(col_width, row_height);
            let _ = self.hub.send(ToHub::Resize { id: self.id, size });
        }
        // Sent only when the client asked for a reply (RFC 4254 6.7 asks
        // for none, but a client that wants one waits for it).
        session.channel_success(channel)
    }

    /// A signal for the "process" (RFC 4254 6.9): there is none to
    /// signal, and a player's Ctrl-C comes as a key. Refused, with
    /// `SSH_MSG_CHANNEL_FAILURE` when the client asked for a reply (every
    /// other unknown request, `break` and custom ones, russh refuses so).
    async fn signal(
        &mut self,
        channel: ChannelId,
        _signal: russh::Sig,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    /// `NO_COLOR` (no-color.org: set and not empty) before the shell
    /// starts: the player's screen without colour; from another server's
    /// relay, also who the player is and the room they join
    /// (`super::relay`). No other variable is taken.
    async fn env_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let peer = self.peer.is_some();
        let Some(o) = self.opened(channel) else {
            return session.channel_failure(channel);
        };
        match name {
            "NO_COLOR" => o.no_color = !value.is_empty(),
            relay::IDENTITY_VAR if peer => o.identity = Some(value.to_string()),
            relay::ROOM_VAR if peer => match value.parse() {
                Ok(room) => o.room = Some(room),
                Err(_) => return session.channel_failure(channel),
            },
            _ => return session.channel_failure(channel),
        }
        session.channel_success(channel)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single: bool,
        _protocol: &str,
        _cookie: &str,
        _screen: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }
}
