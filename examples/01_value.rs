//! Teaches: micrograd's README example, line for line: build an expression from `Value`s,
//! read the forward result, call `backward()`, read the gradients.
//!
//! Run: `cargo run --example 01_value`. It prints the three lines Python micrograd prints
//! for the same code (`24.7041`, `138.8338`, `645.5773`, from the README's comments).

mod common;

use std::process::ExitCode;

use micrograd::Value;

const USAGE: &str = "01_value   (no flags: it runs micrograd's README example)
  -h, --help    print this and exit";

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    common::finish(args, USAGE)?;

    // from micrograd.engine import Value
    //
    // a = Value(-4.0)
    let a = Value::new(-4.0);
    // b = Value(2.0)
    let b = Value::new(2.0);
    // c = a + b
    let mut c = &a + &b;
    // d = a * b + b**3
    let mut d = &a * &b + b.powf(3.0);
    // c += c + 1
    c += &c + 1.0;
    // c += 1 + c + (-a)
    c += 1.0 + &c + (-&a);
    // d += d * 2 + (b + a).relu()
    d += &d * 2.0 + (&b + &a).relu();
    // d += 3 * d + (b - a).relu()
    d += 3.0 * &d + (&b - &a).relu();
    // e = c - d
    let e = &c - &d;
    // f = e**2
    let f = e.powf(2.0);
    // g = f / 2.0
    let mut g = &f / 2.0;
    // g += 10.0 / f
    g += 10.0 / &f;
    // print(f'{g.data:.4f}') # prints 24.7041, the outcome of this forward pass
    println!("{:.4}", g.data());
    // g.backward()
    g.backward();
    // print(f'{a.grad:.4f}') # prints 138.8338, i.e. the numerical value of dg/da
    println!("{:.4}", a.grad());
    // print(f'{b.grad:.4f}') # prints 645.5773, i.e. the numerical value of dg/db
    println!("{:.4}", b.grad());
    Ok(())
}
