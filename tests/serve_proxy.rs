//! `skid serve --proxy-protocol` behind a load balancer, in-process: the
//! balancer's connections all come from its one address, and each begins
//! with a PROXY header naming the player's (docs/SERVE.md, "Admission").
#![cfg(feature = "serve")]

#[path = "common/in_process.rs"]
mod in_process;
#[path = "common/ssh.rs"]
mod ssh;

use std::net::SocketAddr;
use std::time::Duration;

use in_process::{closed_within, options, temp_dir};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use skid::serve;

/// A version 2 header (binary) for a TCP connection from `from` (IPv4).
fn v2_header(from: SocketAddr) -> Vec<u8> {
    let SocketAddr::V4(from) = from else {
        panic!("an IPv4 address")
    };
    let mut h = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    h.extend_from_slice(&[0x21, 0x11, 0, 12]);
    h.extend_from_slice(&from.ip().octets());
    h.extend_from_slice(&[10, 0, 0, 11]);
    h.extend_from_slice(&from.port().to_be_bytes());
    h.extend_from_slice(&2222u16.to_be_bytes());
    h
}

/// A connection to `srv` begun with `header`, as a balancer makes it.
async fn via_balancer(srv: SocketAddr, header: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(srv).await.unwrap();
    s.write_all(header).await.unwrap();
    s
}

/// Whether a connection begun with `header` gets as far as SSH's login.
async fn logs_in(srv: SocketAddr, header: &[u8]) -> bool {
    let s = via_balancer(srv, header).await;
    let config = std::sync::Arc::new(russh::client::Config::default());
    russh::client::connect_stream(config, s, ssh::Trust)
        .await
        .is_ok()
}

/// Each player counts as the address their header names, not as the
/// balancer's (which would hold the server to four): ten players, from
/// ten addresses and through both versions of the header, all get in,
/// while a fifth from one address is refused there as it would be
/// without a balancer. The balancer's health check (`PROXY UNKNOWN`)
/// is let in as the balancer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_balancer_each_player_is_their_own_address() {
    let mut opts = options(temp_dir("proxy"));
    opts.proxy_protocol = true;
    let srv = serve::start(opts).await.unwrap();
    let mut players = Vec::new();
    for i in 0..10u8 {
        let from: SocketAddr = format!("198.51.100.{}:{}", 17 * i + 3, 40_000 + u16::from(i))
            .parse()
            .unwrap();
        let header = if i % 2 == 0 {
            format!(
                "PROXY TCP4 {} 10.0.0.11 {} 2222\r\n",
                from.ip(),
                from.port()
            )
            .into_bytes()
        } else {
            v2_header(from)
        };
        let name = format!("racer{i}");
        let s = via_balancer(srv.addr, &header).await;
        let p = ssh::open(ssh::login_over(s, &name).await, (80, 24), &[]).await;
        p.wait_for(&format!("you are {name}"), 5.0).await;
        players.push(p);
    }
    // Four more from one address, the per-address limit: a fifth is not.
    let one = b"PROXY TCP4 203.0.113.5 10.0.0.11 50000 2222\r\n";
    let mut four = Vec::new();
    for _ in 0..serve::PER_ADDRESS {
        four.push(ssh::login_over(via_balancer(srv.addr, one).await, "lan").await);
    }
    assert!(!logs_in(srv.addr, one).await, "a fifth from 203.0.113.5");
    assert!(
        logs_in(srv.addr, b"PROXY UNKNOWN\r\n").await,
        "a health check"
    );
    for p in &players {
        assert!(!p.closed.load(std::sync::atomic::Ordering::SeqCst));
    }
    srv.shutdown().await;
}

/// With `--proxy-protocol`, a connection that does not begin with a
/// header (a client that reached the server around the balancer), or
/// whose header never ends, is closed; a client that says nothing is
/// closed at the login deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_header_a_connection_is_closed() {
    let mut opts = options(temp_dir("proxy-none"));
    opts.proxy_protocol = true;
    opts.login = Duration::from_secs(1);
    let srv = serve::start(opts).await.unwrap();
    let config = std::sync::Arc::new(russh::client::Config::default());
    let plain = russh::client::connect(config, srv.addr, ssh::Trust).await;
    assert!(plain.is_err(), "plain SSH, no header");
    for start in [
        &b"PROXY TCP4 198.51.100.1 10.0.0.11 1 2"[..],
        b"GET / HTTP/1.1\r\n\r\n",
        b"",
    ] {
        let mut s = via_balancer(srv.addr, start).await;
        assert!(
            closed_within(&mut s, 5.0).await,
            "{start:?}: still open 5 s after connecting"
        );
    }
    srv.shutdown().await;
}
