//! Who gets into `skid serve` and what a session may do, in-process
//! (a server on 127.0.0.1:0 and russh clients): a pty required, every
//! request but a shell's refused, garbage and floods cut off, idle
//! players told and disconnected, the limits on players and per address
//! held, and connections that never log in or never reach the lobby
//! closed at the login deadline without taking a player's place
//! (docs/SERVE.md, "What a session may do" and "Admission").
#![cfg(feature = "serve")]

#[path = "common/in_process.rs"]
mod in_process;
#[path = "common/ssh.rs"]
mod ssh;

use in_process::{closed_within, options, server, temp_dir};

use std::time::Duration;

use skid::serve;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_without_a_pty_gets_one_line_and_is_closed() {
    let srv = server("nopty").await;
    let h = ssh::login(srv.addr, "carol").await;
    let mut ch = h.channel_open_session().await.unwrap();
    ch.request_shell(true).await.unwrap();
    let mut out = Vec::new();
    let got = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(msg) = ch.wait().await {
            if let russh::ChannelMsg::Data { data } = msg {
                out.extend_from_slice(&data);
            }
        }
    })
    .await;
    assert!(got.is_ok(), "the channel stayed open");
    assert_eq!(String::from_utf8_lossy(&out), serve::NEEDS_PTY);
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_subsystem_env_and_forwarding_are_refused() {
    let srv = server("refuse").await;
    let failed = |msg: Option<russh::ChannelMsg>| matches!(msg, Some(russh::ChannelMsg::Failure));
    let h = ssh::login(srv.addr, "mallory").await;
    let mut ch = h.channel_open_session().await.unwrap();
    ch.exec(true, "cat /etc/passwd").await.unwrap();
    assert!(failed(ch.wait().await), "exec");
    // One session a connection.
    assert!(h.channel_open_session().await.is_err(), "a second session");
    let h = ssh::login(srv.addr, "mallory").await;
    let mut ch = h.channel_open_session().await.unwrap();
    ch.request_subsystem(true, "sftp").await.unwrap();
    assert!(failed(ch.wait().await), "subsystem");
    let h = ssh::login(srv.addr, "mallory").await;
    let mut ch = h.channel_open_session().await.unwrap();
    ch.set_env(true, "LD_PRELOAD", "/tmp/x.so").await.unwrap();
    assert!(failed(ch.wait().await), "env");
    assert!(
        h.channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5000)
            .await
            .is_err(),
        "direct-tcpip"
    );
    assert!(
        h.tcpip_forward("127.0.0.1", 0).await.is_err(),
        "tcpip-forward"
    );
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_and_floods_cut_the_client_off() {
    let srv = server("flood").await;
    let junk = ssh::in_lobby(srv.addr, "junk").await;
    let mut garbage = Vec::new();
    for _ in 0..200 {
        garbage.extend_from_slice(b"\x1b[99999999999999999999999999999999999999");
    }
    junk.send(&garbage).await;
    junk.wait_closed(5.0).await;

    let flood = ssh::in_lobby(srv.addr, "flood").await;
    let keys = vec![b'j'; 64 * 1024];
    let _ = flood.write.data_bytes(keys).await;
    flood.wait_closed(5.0).await;

    // Others are untouched.
    let _fine = ssh::in_lobby(srv.addr, "fine").await;
    srv.shutdown().await;
}

/// Window changes are a few bytes each, and a client can send them as
/// fast as it likes (1.4 million in 3 s, once): past
/// `serve::RESIZES_PER_SECOND` in a second the client is cut off, while
/// a racer's frames go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storm_of_window_changes_cuts_the_client_off() {
    let srv = server("resizes").await;
    let ann = ssh::in_lobby(srv.addr, "ann").await;
    let storm = ssh::in_lobby(srv.addr, "storm").await;
    ann.send(b"\r").await;
    ann.wait_for("room 1", 5.0).await;
    ann.send(b"\r").await;
    ann.wait_for("LAP", 5.0).await;
    let frames = || ann.raw_text().matches("\x1b[?2026l").count();
    let before = frames();
    for k in 0u32.. {
        let (cols, rows) = if k % 2 == 0 { (500, 200) } else { (80, 24) };
        if storm.write.window_change(cols, rows, 0, 0).await.is_err() || k > 1_000_000 {
            break;
        }
    }
    storm.wait_closed(5.0).await;
    // Ann's race went on meanwhile, and goes on.
    let end = std::time::Instant::now() + Duration::from_secs(5);
    while frames() < before + 30 {
        assert!(std::time::Instant::now() < end, "Ann's frames stopped");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_player_is_told_and_disconnected() {
    let mut opts = options(temp_dir("idle"));
    opts.idle = Duration::from_secs(1);
    let srv = serve::start(opts).await.unwrap();
    let p = ssh::in_lobby(srv.addr, "sleepy").await;
    p.wait_closed(5.0).await;
    assert!(p.raw_text().contains("idle too long"), "{:?}", p.raw_text());
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_holds_its_limits_on_players_and_sessions_an_address() {
    let opts = options(temp_dir("limits"));
    let srv = serve::start(opts).await.unwrap();
    let mut in_ = Vec::new();
    for i in 0..serve::PER_ADDRESS {
        in_.push(ssh::join(srv.addr, &format!("p{i}"), (80, 24)).await);
    }
    // A fifth from the same address is refused before SSH begins.
    let config = std::sync::Arc::new(russh::client::Config::default());
    let fifth = russh::client::connect(config, srv.addr, ssh::Trust).await;
    assert!(fifth.is_err(), "a fifth session from one address");
    // One leaves: there is room again.
    drop(in_.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let _again = ssh::in_lobby(srv.addr, "again").await;
    srv.shutdown().await;

    // --max-players: the third of two is refused.
    let mut opts = options(temp_dir("limits2"));
    opts.max_players = 2;
    let srv = serve::start(opts).await.unwrap();
    let _a = ssh::in_lobby(srv.addr, "a").await;
    let _b = ssh::in_lobby(srv.addr, "b").await;
    let config = std::sync::Arc::new(russh::client::Config::default());
    let third = russh::client::connect(config, srv.addr, ssh::Trust).await;
    assert!(third.is_err(), "a third player of two");
    srv.shutdown().await;

    // --per-address 6 (players behind one NAT): six in, a seventh not.
    let mut opts = options(temp_dir("limits3"));
    opts.per_address = 6;
    let srv = serve::start(opts).await.unwrap();
    let mut in_ = Vec::new();
    for i in 0..6 {
        in_.push(ssh::in_lobby(srv.addr, &format!("n{i}")).await);
    }
    let config = std::sync::Arc::new(russh::client::Config::default());
    let seventh = russh::client::connect(config, srv.addr, ssh::Trust).await;
    assert!(seventh.is_err(), "a seventh of six from one address");
    srv.shutdown().await;
}

/// A client that connects and never logs in is closed when its time is
/// up, whether it says nothing at all or stops after the greeting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_logs_in_is_closed() {
    use tokio::io::AsyncWriteExt;
    let mut opts = options(temp_dir("login"));
    opts.login = Duration::from_secs(1);
    let srv = serve::start(opts).await.unwrap();
    for greeting in [&b""[..], b"SSH-2.0-silent\r\n"] {
        let mut s = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
        s.write_all(greeting).await.unwrap();
        assert!(
            closed_within(&mut s, 5.0).await,
            "still open 5 s after connecting"
        );
    }
    // A client that logs in stays past the deadline.
    let p = ssh::join(srv.addr, "slowpoke", (80, 24)).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    p.wait_for("you are slowpoke", 2.0).await;
    assert!(!p.closed.load(std::sync::atomic::Ordering::SeqCst));
    srv.shutdown().await;
}

/// Logged-in connections that never reach the lobby are closed when
/// their time is up, whichever way they stop short: no channel at all
/// (`ssh -N`), a pty asked for and no shell, or a shell without a pty
/// (whose channel the server closes). Meanwhile they never take a
/// player's place: with `--max-players 2` and two of them waiting, two
/// players still get in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_never_reaches_the_lobby_is_closed_and_holds_no_place() {
    let mut opts = options(temp_dir("admission"));
    opts.login = Duration::from_secs(2);
    opts.max_players = 2;
    let srv = serve::start(opts).await.unwrap();
    let no_channel = ssh::login(srv.addr, "lurker").await;
    let pty_only = ssh::login(srv.addr, "ptyonly").await;
    let ch = pty_only.channel_open_session().await.expect("session");
    ch.request_pty(true, "xterm", 80, 24, 0, 0, &[])
        .await
        .expect("pty");
    // Two players join while those two wait: neither counts as a player.
    let a = ssh::in_lobby(srv.addr, "a").await;
    let b = ssh::in_lobby(srv.addr, "b").await;
    // One leaves, making room at the address for one more connection.
    drop(a);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let no_pty = ssh::login(srv.addr, "nopty").await;
    let ch2 = no_pty.channel_open_session().await.expect("session");
    ch2.request_shell(true).await.expect("shell");
    let end = std::time::Instant::now() + Duration::from_secs(6);
    let mut open = ["no channel", "pty without a shell", "shell without a pty"].to_vec();
    while !open.is_empty() {
        let states = [
            no_channel.is_closed(),
            pty_only.is_closed(),
            no_pty.is_closed(),
        ];
        open = ["no channel", "pty without a shell", "shell without a pty"]
            .into_iter()
            .zip(states)
            .filter(|(_, closed)| !closed)
            .map(|(what, _)| what)
            .collect();
        assert!(
            std::time::Instant::now() < end,
            "still open 6 s after connecting: {open:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The player who joined in time is still there.
    b.wait_for("you are b", 1.0).await;
    assert!(!b.closed.load(std::sync::atomic::Ordering::SeqCst));
    srv.shutdown().await;
}
