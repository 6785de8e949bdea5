//! The engine's workloads, one per process, for `scripts/compare/engine_ab.sh`: the demo's
//! training step through the dynamic graph (built, differentiated and dropped each
//! step) and through a tape compiled once, the chain `y = y * 1.0` of a million links,
//! and a graph of 1.5 million nodes (a chain of `* 1.0`, `relu` and `+ x`, `x` shared)
//! differentiated on a 256 KiB stack.
//!
//! Usage: engine_ab (moons STEPS | tape STEPS | chain ROUNDS | deep ROUNDS)

use micrograd::data::moons100;
use micrograd::loss::{l2, svm_hinge};
use micrograd::prelude::*;
use micrograd::rand::rngs::SmallRng;
use micrograd::rand::SeedableRng;
use micrograd::tape::Tape;

/// The demo's model shape, 2-16-16-1, its weights from a fixed seed.
fn model() -> MLP {
    MLP::new(2, &[16, 16, 1], &mut SmallRng::seed_from_u64(1337))
}

/// The demo's loss over its 100 points: hinge plus 1e-4 L2.
fn loss(m: &MLP) -> Value {
    let data = moons100();
    let scores: Vec<Value> = (data.inputs.iter())
        .map(|x| m.forward_f64(x).expect("2 inputs").remove(0))
        .collect();
    svm_hinge(&scores, &data.labels).expect("labels are -1 or 1") + l2(&m.parameters(), 1e-4)
}

/// Plain SGD at a small rate, so that the work per step stays the same.
fn step(m: &MLP) {
    for p in m.parameters() {
        p.set_data(p.data() - 0.01 * p.grad());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: engine_ab (moons STEPS | tape STEPS | chain ROUNDS | deep ROUNDS)";
    let (what, n) = match args.as_slice() {
        [_, what, n] => (what.as_str(), n.parse::<usize>().expect(usage)),
        _ => panic!("{usage}"),
    };
    match what {
        "moons" => {
            let m = model();
            for _ in 0..n {
                let l = loss(&m);
                m.zero_grad();
                l.backward();
                step(&m);
            }
            println!("loss {}", loss(&m).data());
        }
        "tape" => {
            let m = model();
            let mut tape = Tape::compile(&loss(&m)).expect("a graph");
            for _ in 0..n {
                m.zero_grad();
                tape.forward().expect("finite");
                tape.backward().expect("finite");
                step(&m);
            }
            println!("loss {}", tape.forward().expect("finite"));
        }
        "chain" => {
            for _ in 0..n {
                let x = Value::new(1.0);
                let mut y = x.clone();
                for _ in 0..1_000_000 {
                    y = &y * 1.0;
                }
                y.backward();
                assert_eq!(x.grad(), 1.0);
            }
        }
        "deep" => std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                for _ in 0..n {
                    let x = Value::new(0.5);
                    let mut y = x.clone();
                    for i in 0..1_000_000 {
                        y = if i % 2 == 0 { (&y * 1.0).relu() } else { &y + &x };
                    }
                    y.backward();
                    assert!(x.grad() > 0.0);
                }
            })
            .expect("a thread")
            .join()
            .expect("no stack overflow"),
        _ => panic!("{usage}"),
    }
}
