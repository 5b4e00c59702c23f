//! SSH clients for the server's tests: russh's client with a pty, its
//! output fed to a terminal emulator (vt100) so that tests read the
//! screen a player would see.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::client::{self, Handle};
use russh::keys::PublicKeyOrCertificate;
use russh::{ChannelMsg, ChannelWriteHalf};

/// A screen dimension for vt100 (never zero).
pub fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n.max(1)).unwrap()
}

pub struct Trust;

impl client::Handler for Trust {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// A connected player.
pub struct Player {
    /// The connection: dropping it hangs up.
    pub _handle: Handle<Trust>,
    pub write: ChannelWriteHalf<client::Msg>,
    pub screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte the server sent.
    pub raw: Arc<Mutex<Vec<u8>>>,
    /// What it sent on the session's standard error.
    pub stderr: Arc<Mutex<Vec<u8>>>,
    /// The server's replies to the channel's requests, in order: whether
    /// each succeeded.
    pub replies: Arc<Mutex<Vec<bool>>>,
    pub closed: Arc<AtomicBool>,
}

/// Logs in as a guest named `user` (keyboard-interactive, no prompt).
pub async fn login(addr: SocketAddr, user: &str) -> Handle<Trust> {
    login_with(addr, user, None).await
}

/// Logs in as `user` with `key`, or as a guest without one.
pub async fn login_with(
    addr: SocketAddr,
    user: &str,
    key: Option<russh::keys::PrivateKey>,
) -> Handle<Trust> {
    let config = Arc::new(client::Config::default());
    let h = client::connect(config, addr, Trust).await.expect("connect");
    authenticate(h, user, key).await
}

/// Logs in as a guest named `user` over `stream`, a connection made and
/// begun already (with a PROXY header, say).
pub async fn login_over(stream: tokio::net::TcpStream, user: &str) -> Handle<Trust> {
    let config = Arc::new(client::Config::default());
    let h = client::connect_stream(config, stream, Trust)
        .await
        .expect("connect");
    authenticate(h, user, None).await
}

/// Logs the connection `h` in as `user` with `key`, or as a guest.
async fn authenticate(
    mut h: Handle<Trust>,
    user: &str,
    key: Option<russh::keys::PrivateKey>,
) -> Handle<Trust> {
    if let Some(key) = key {
        let key = russh::keys::PrivateKeyWithHashAlg::new(Arc::new(key), None);
        let r = h.authenticate_publickey(user, key).await.expect("auth");
        assert!(r.success(), "key refused");
        return h;
    }
    let r = h
        .authenticate_keyboard_interactive_start(user, None)
        .await
        .expect("auth");
    assert!(
        matches!(r, client::KeyboardInteractiveAuthResponse::Success),
        "guest login refused"
    );
    h
}

/// An ed25519 key made from `seed`.
pub fn key(seed: u8) -> russh::keys::PrivateKey {
    russh::keys::ssh_key::private::Ed25519Keypair::from_seed(&[seed; 32]).into()
}

/// A player `user` with a pty of `size` (columns, rows) in the lobby.
pub async fn join(addr: SocketAddr, user: &str, size: (u16, u16)) -> Player {
    join_with(addr, user, size, None).await
}

/// [`join`] at 80x24, once the lobby greets `user` by name.
pub async fn in_lobby(addr: SocketAddr, user: &str) -> Player {
    let p = join(addr, user, (80, 24)).await;
    p.wait_for(&format!("you are {user}"), 5.0).await;
    p
}

/// [`join`] with a key.
pub async fn join_with(
    addr: SocketAddr,
    user: &str,
    size: (u16, u16),
    key: Option<russh::keys::PrivateKey>,
) -> Player {
    join_as(addr, user, size, key, &[]).await
}

/// [`join_with`], sending the environment variables `env` first (as
/// `ssh -o SetEnv` does), each asking for a reply.
pub async fn join_as(
    addr: SocketAddr,
    user: &str,
    size: (u16, u16),
    key: Option<russh::keys::PrivateKey>,
    env: &[(&str, &str)],
) -> Player {
    let handle = login_with(addr, user, key).await;
    open(handle, size, env).await
}

/// A player on the logged-in connection `handle`, with a pty of `size`,
/// sending the environment variables `env` first.
pub async fn open(handle: Handle<Trust>, size: (u16, u16), env: &[(&str, &str)]) -> Player {
    let ch = handle.channel_open_session().await.expect("session");
    for (name, value) in env {
        ch.set_env(true, *name, *value).await.expect("env");
    }
    ch.request_pty(
        true,
        "xterm-256color",
        size.0.into(),
        size.1.into(),
        0,
        0,
        &[],
    )
    .await
    .expect("pty");
    ch.request_shell(true).await.expect("shell");
    let (mut read, write) = ch.split();
    let screen = Arc::new(Mutex::new(vt100::Parser::new(nz(size.1), nz(size.0), 0)));
    let raw = Arc::new(Mutex::new(Vec::new()));
    let stderr = Arc::new(Mutex::new(Vec::new()));
    let closed = Arc::new(AtomicBool::new(false));
    let replies = Arc::new(Mutex::new(Vec::new()));
    let (s, r, c, y) = (screen.clone(), raw.clone(), closed.clone(), replies.clone());
    let e = stderr.clone();
    tokio::spawn(async move {
        while let Some(msg) = read.wait().await {
            match msg {
                ChannelMsg::Data { data } => {
                    s.lock().unwrap().process(&data);
                    r.lock().unwrap().extend_from_slice(&data);
                }
                ChannelMsg::ExtendedData { data, ext: 1 } => {
                    e.lock().unwrap().extend_from_slice(&data);
                }
                ChannelMsg::Success => y.lock().unwrap().push(true),
                ChannelMsg::Failure => y.lock().unwrap().push(false),
                ChannelMsg::Close => break,
                _ => {}
            }
        }
        c.store(true, Ordering::SeqCst);
    });
    Player {
        _handle: handle,
        write,
        screen,
        raw,
        stderr,
        replies,
        closed,
    }
}

impl Player {
    pub fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    pub async fn send(&self, bytes: &[u8]) {
        self.write.data_bytes(bytes.to_vec()).await.expect("send");
    }

    /// The player's window becomes `cols` x `rows`: the screen read back
    /// and the server told.
    pub async fn resize(&self, cols: u16, rows: u16) {
        self.screen
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(nz(rows), nz(cols));
        self.write
            .window_change(cols.into(), rows.into(), 0, 0)
            .await
            .unwrap();
    }

    /// Waits up to `secs` for the screen to show `what`; panics with the
    /// screen if it does not.
    pub async fn wait_for(&self, what: &str, secs: f64) -> String {
        self.wait_until(|s| s.contains(what), secs, what).await
    }

    pub async fn wait_until(&self, ok: impl Fn(&str) -> bool, secs: f64, what: &str) -> String {
        let end = Instant::now() + Duration::from_secs_f64(secs);
        loop {
            let text = self.text();
            if ok(&text) {
                return text;
            }
            assert!(
                Instant::now() < end,
                "waited {secs} s for {what:?}; the screen:\n{text}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits up to `secs` for the server to close the channel.
    pub async fn wait_closed(&self, secs: f64) {
        let end = Instant::now() + Duration::from_secs_f64(secs);
        while !self.closed.load(Ordering::SeqCst) {
            assert!(
                Instant::now() < end,
                "still open after {secs} s:\n{}",
                self.text()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Holds a key as a terminal without releases does: a press, a
    /// pause of 0.5 s, then a repeat every 33 ms for `secs` in all.
    pub async fn hold(&self, key: &[u8], secs: f64) {
        let end = Instant::now() + Duration::from_secs_f64(secs);
        self.send(key).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        while Instant::now() < end {
            self.send(key).await;
            tokio::time::sleep(Duration::from_millis(33)).await;
        }
    }

    pub fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }
}
