//! The door for other servers' relays (`--peer`): it lets in the servers'
//! shared host key only, and only from there is who a player is and the
//! room they join taken on a server's word; the players' own door takes
//! neither.
#![cfg(feature = "serve")]

#[path = "common/in_process.rs"]
mod in_process;
#[path = "common/ssh.rs"]
mod ssh;

use std::sync::Arc;

use russh::client;
use russh::keys::PrivateKeyWithHashAlg;
use skid::serve;

/// A server with a door for relays; its host key.
async fn server(name: &str) -> (serve::Server, russh::keys::PrivateKey) {
    server_of(name, 64).await
}

/// [`server`] of `max_players`.
async fn server_of(name: &str, max_players: usize) -> (serve::Server, russh::keys::PrivateKey) {
    let dir = in_process::temp_dir(name);
    let mut opts = in_process::options(dir.clone());
    opts.peer = Some("127.0.0.1:0".parse().unwrap());
    opts.max_players = max_players;
    let srv = serve::start(opts).await.unwrap();
    let key = serve::host_key(&dir).unwrap();
    (srv, key)
}

/// Ann, in a room of her own on the server at `addr`.
async fn ann_hosting(addr: std::net::SocketAddr) -> ssh::Player {
    let ann = ssh::in_lobby(addr, "ann").await;
    ann.send(b"\r").await;
    ann.wait_for("PLAYERS 1/", 5.0).await;
    ann
}

/// Relays as a player's server starts them, logging in with `key` and
/// telling `hub`.
fn relays(
    key: russh::keys::PrivateKey,
    hub: &std::sync::mpsc::Sender<serve::hub::ToHub>,
) -> serve::relay::Relays {
    serve::relay::Relays {
        runtime: tokio::runtime::Handle::current(),
        key: Arc::new(key),
        hub: hub.clone(),
    }
}

/// Player `id`, `name`, a guest at 80x24, relayed to room 1 at `peer`.
fn trip(id: u64, name: &str, peer: std::net::SocketAddr) -> serve::relay::Trip {
    serve::relay::Trip {
        id,
        name: name.into(),
        identity: None,
        size: (80, 24),
        color: false,
        peer: peer.to_string(),
        room: 1,
    }
}

/// Whether `key` logs in as ann at `addr`.
async fn key_let_in(addr: std::net::SocketAddr, key: russh::keys::PrivateKey) -> bool {
    let config = Arc::new(client::Config::default());
    let mut h = client::connect(config, addr, ssh::Trust).await.unwrap();
    let key = PrivateKeyWithHashAlg::new(Arc::new(key), None);
    h.authenticate_publickey("ann", key)
        .await
        .unwrap()
        .success()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_servers_key_opens_the_door_for_relays() {
    let (srv, host) = server("peer-door").await;
    let peer = srv.peer.expect("a door for relays");
    // A player's own key, or none, does not open it.
    assert!(!key_let_in(peer, ssh::key(7)).await);
    let config = Arc::new(client::Config::default());
    let mut h = client::connect(config, peer, ssh::Trust).await.unwrap();
    let guest = h
        .authenticate_keyboard_interactive_start("ann", None)
        .await
        .unwrap();
    assert!(
        !matches!(guest, client::KeyboardInteractiveAuthResponse::Success),
        "a guest let in at the door for relays"
    );
    // The servers' key does; a session naming no room is refused.
    assert!(key_let_in(peer, host.clone()).await);
    let handle = ssh::login_with(peer, "ann", Some(host.clone())).await;
    let p = ssh::open(handle, (80, 24), &[]).await;
    p.wait_closed(5.0).await;
    assert!(p.raw_text().contains("no room named"), "{}", p.raw_text());
    // Naming a room that is not there: closed, saying so (on standard
    // error, for the relay; nothing on the screen).
    let handle = ssh::login_with(peer, "ann", Some(host)).await;
    let p = ssh::open(handle, (80, 24), &[("SKID_ROOM", "9")]).await;
    p.wait_closed(5.0).await;
    let said = String::from_utf8_lossy(&p.stderr.lock().unwrap()).into_owned();
    assert_eq!(said, "room 9 is gone");
    assert!(!p.raw_text().contains("room 9"), "{}", p.raw_text());
    srv.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_door_takes_no_room_or_key_on_a_clients_word() {
    let (srv, _) = server("player-door").await;
    let ann = ann_hosting(srv.addr).await;
    // Ben names Ann's room and a key he does not hold: both refused, he
    // is a guest in the lobby.
    let env = [("SKID_ROOM", "1"), ("SKID_IDENTITY", "SHA256:not-his")];
    let ben = ssh::join_as(srv.addr, "ben", (80, 24), None, &env).await;
    let lobby = ben.wait_for("you are ben", 5.0).await;
    assert!(lobby.contains("a guest"), "{lobby}");
    assert_eq!(*ben.replies.lock().unwrap(), [false, false, true, true]);
    assert!(!ann.text().contains("ben"), "{}", ann.text());
    srv.shutdown().await;
}

/// The next message a relay gave its hub, within 5 s.
async fn told(hub: &std::sync::mpsc::Receiver<serve::hub::ToHub>) -> serve::hub::ToHub {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        if let Ok(msg) = hub.try_recv() {
            return msg;
        }
        assert!(std::time::Instant::now() < end, "the relay said nothing");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// A relay as a player's server starts it, straight: the room's server
/// checked by its key, the player seated in the room, their bytes there
/// and its frames back, and each way it can end said in a few words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_seats_its_player_and_says_how_it_ended() {
    use serve::hub::{Out, ToHub};
    use serve::relay::{ToRelay, Trip};
    let (srv, host) = server("relay").await;
    let ann = ann_hosting(srv.addr).await;
    let (to_hub, hub) = std::sync::mpsc::channel();
    let relays = |key| relays(key, &to_hub);
    let ask = |peer: std::net::SocketAddr| Trip {
        identity: Some("SHA256:ben".into()),
        ..trip(7, "ben", peer)
    };
    let peer = srv.peer.unwrap();
    let ended = |msg| match msg {
        ToHub::RelayEnded { id: 7, why } => why,
        _ => panic!("not an end"),
    };
    // Another key than the room's server's: refused, before any login.
    let _r = relays(ssh::key(9)).start(ask(peer), "room 1".into());
    let why = ended(told(&hub).await);
    assert_eq!(why.as_deref(), Some("its server has another host key"));
    // Nobody there.
    let gone = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let nobody = gone.local_addr().unwrap();
    drop(gone);
    let _r = relays(host.clone()).start(ask(nobody), "room 1".into());
    let why = ended(told(&hub).await);
    assert_eq!(why.as_deref(), Some("its server cannot be reached"));
    // The servers' key: Ben in Ann's room, frames back, q out of it.
    let mut relay = relays(host).start(ask(peer), "room 1".into());
    let (mut back, mut screen) = seated(&hub, &ann).await;
    let end = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !screen.screen().contents().contains("waiting for the host") {
        assert!(
            std::time::Instant::now() < end,
            "{}",
            screen.screen().contents()
        );
        if let Ok(Some(Out::Frame(bytes))) =
            tokio::time::timeout(std::time::Duration::from_millis(100), back.recv()).await
        {
            screen.process(&bytes);
        }
    }
    relay.pass(ToRelay::Bytes(b"q".to_vec()));
    let left = ended(told(&hub).await);
    assert_eq!(left, None, "only left the room");
    let room = ann
        .wait_until(|s| !s.contains("ben"), 5.0, "ben gone")
        .await;
    assert!(room.contains("PLAYERS 1/"), "{room}");
    srv.shutdown().await;
}

/// Relay 7 up, as its server says, its frames taken on a queue of one,
/// and Ben seen in Ann's room: the frames and an 80x24 screen for them.
async fn seated(
    hub: &std::sync::mpsc::Receiver<serve::hub::ToHub>,
    ann: &ssh::Player,
) -> (tokio::sync::mpsc::Receiver<serve::hub::Out>, vt100::Parser) {
    let serve::hub::ToHub::RelayUp { id: 7, frames } = told(hub).await else {
        panic!("not up");
    };
    let (out, back) = tokio::sync::mpsc::channel(1);
    frames.send(out).unwrap();
    ann.wait_for("ben", 5.0).await;
    (back, vt100::Parser::new(ssh::nz(24), ssh::nz(80), 0))
}

/// Ben's screen through the relay: frames read from `back` for `secs`
/// into `screen`; returns its text.
async fn read_for(
    back: &mut tokio::sync::mpsc::Receiver<serve::hub::Out>,
    screen: &mut vt100::Parser,
    secs: f64,
) -> String {
    let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(secs);
    while std::time::Instant::now() < end {
        let wait = std::time::Duration::from_millis(20);
        if let Ok(Some(serve::hub::Out::Frame(bytes))) =
            tokio::time::timeout(wait, back.recv()).await
        {
            screen.process(&bytes);
        }
    }
    screen.screen().contents()
}

/// The INPUT line of a race screen.
fn input_line(text: &str) -> String {
    (text.lines())
        .find(|l| l.contains("INPUT"))
        .unwrap_or_default()
        .to_string()
}

/// A relayed player's bytes reach the room's server as they came, so a
/// key split across packets is read whole there (a kitty release in two
/// pieces lets go of the throttle); and a relayed player who stops
/// reading holds no frames up on their own server: their keys still go
/// (two q's leave the race), and when they read again the screen comes
/// whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_passes_keys_in_pieces_and_keys_of_a_player_who_stops_reading() {
    use serve::hub::ToHub;
    use serve::relay::ToRelay;
    let (srv, host) = server("relay-pieces").await;
    let ann = ann_hosting(srv.addr).await;
    let (to_hub, hub) = std::sync::mpsc::channel();
    let ask = trip(7, "ben", srv.peer.unwrap());
    let mut relay = relays(host, &to_hub).start(ask, "room 1".into());
    let (mut back, mut screen) = seated(&hub, &ann).await;
    read_for(&mut back, &mut screen, 0.5).await;
    ann.send(b"\r").await;
    // Past the countdown: W pressed (kitty), then let go in two pieces.
    read_for(&mut back, &mut screen, 3.5).await;
    relay.pass(ToRelay::Bytes(b"\x1b[119u".to_vec()));
    let held = read_for(&mut back, &mut screen, 1.0).await;
    assert!(input_line(&held).contains("GAS"), "{held}");
    relay.pass(ToRelay::Bytes(b"\x1b[119;1".to_vec()));
    read_for(&mut back, &mut screen, 0.1).await;
    relay.pass(ToRelay::Bytes(b":3u".to_vec()));
    let let_go = read_for(&mut back, &mut screen, 1.0).await;
    assert!(!input_line(&let_go).contains("GAS"), "{let_go}");
    // Ben stops reading while the race draws on; his frames wait no
    // longer than his queue holds, and his keys go.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    relay.pass(ToRelay::Bytes(b"q".to_vec()));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let asked = read_for(&mut back, &mut screen, 1.5).await;
    assert!(asked.contains("leave the race?"), "whole again:\n{asked}");
    assert!(asked.contains("RPM"), "{asked}");
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    relay.pass(ToRelay::Bytes(b"q".to_vec()));
    let ToHub::RelayEnded { id: 7, why } = told(&hub).await else {
        panic!("not an end");
    };
    assert_eq!(why, None, "left the race");
    srv.shutdown().await;
}

/// A relayed player takes one of the room's server's `--max-players`
/// like a direct one; one past them is told the server is full.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relayed_players_count_against_max_players_and_are_told_when_full() {
    use serve::hub::ToHub;
    let (srv, host) = server_of("relay-full", 2).await;
    let ann = ann_hosting(srv.addr).await;
    let (to_hub, hub) = std::sync::mpsc::channel();
    let relays = relays(host, &to_hub);
    let peer = srv.peer.unwrap();
    let ask = |id, name: &str| trip(id, name, peer);
    let _ben = relays.start(ask(7, "ben"), "room 1".into());
    let ToHub::RelayUp { id: 7, frames } = told(&hub).await else {
        panic!("ben not up");
    };
    let (out, _back) = tokio::sync::mpsc::channel(64);
    frames.send(out).unwrap();
    ann.wait_for("ben", 5.0).await;
    // Two players: Ann here, Ben relayed. Cal, relayed too, is one more.
    let _cal = relays.start(ask(8, "cal"), "room 1".into());
    // (Its session opens before the server finds no place for it.)
    let mut said = told(&hub).await;
    let (out, _cals) = tokio::sync::mpsc::channel(64);
    if let ToHub::RelayUp { id: 8, frames } = said {
        frames.send(out).unwrap();
        said = told(&hub).await;
    }
    let ToHub::RelayEnded { id: 8, why } = said else {
        panic!("cal's relay did not end");
    };
    assert_eq!(why.as_deref(), Some("server full"));
    // And a direct player is refused at the door.
    assert!(!ann.text().contains("cal"), "{}", ann.text());
    srv.shutdown().await;
}
