//! The job of `examples/07_mnist.rs` in candle: MLP 784-32-10 (ReLU), softmax
//! cross-entropy, Adam (lr 0.002, betas 0.9 and 0.999, eps 1e-8), batch 32, 5 epochs on
//! the first 8,000 images of MNIST's 10k test set, tested on its last 2,000; f64 on the
//! CPU. Prints the time per sample-step (training time / (epochs x training images)) as
//! 07_mnist does, and the held-out accuracy.
//!
//! Usage: candle_mnist MNIST_DIR [EPOCHS (5)]

use std::time::Instant;

use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{linear, loss, AdamW, Optimizer, ParamsAdamW, VarBuilder, VarMap};

const TRAIN: usize = 8_000;
const BATCH: usize = 32;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .ok_or("usage: candle_mnist MNIST_DIR [EPOCHS]")?;
    let epochs: usize = args.next().map_or(Ok(5), |e| e.parse())?;
    let data = micrograd::data::load_mnist(
        format!("{dir}/t10k-images-idx3-ubyte.gz"),
        format!("{dir}/t10k-labels-idx1-ubyte.gz"),
    )?;
    let dev = Device::Cpu;
    let pixels: Vec<f64> = data.inputs.iter().flatten().copied().collect();
    let labels: Vec<u32> = data.labels.iter().map(|&y| y as u32).collect();
    let n = labels.len();
    let images = Tensor::from_vec(pixels, (n, 784), &dev)?;
    let labels = Tensor::from_vec(labels, n, &dev)?;
    let (train_x, test_x) = (
        images.narrow(0, 0, TRAIN)?,
        images.narrow(0, TRAIN, n - TRAIN)?,
    );
    let (train_y, test_y) = (
        labels.narrow(0, 0, TRAIN)?,
        labels.narrow(0, TRAIN, n - TRAIN)?,
    );

    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F64, &dev);
    let (l1, l2) = (linear(784, 32, vb.pp("l1"))?, linear(32, 10, vb.pp("l2"))?);
    let forward = |x: &Tensor| l2.forward(&l1.forward(x)?.relu()?);
    let params = ParamsAdamW {
        lr: 0.002,
        weight_decay: 0.0, // AdamW without decay is Adam
        ..Default::default()
    };
    let mut opt = AdamW::new(varmap.all_vars(), params)?;

    let mut order: Vec<u32> = (0..TRAIN as u32).collect();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut training = 0.0;
    for epoch in 1..=epochs {
        // Fisher-Yates with xorshift64: a new order every epoch, as 07_mnist shuffles.
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let start = Instant::now();
        let mut sum = 0.0;
        for batch in order.chunks(BATCH) {
            let idx = Tensor::from_slice(batch, batch.len(), &dev)?;
            let x = train_x.index_select(&idx, 0)?;
            let y = train_y.index_select(&idx, 0)?;
            let loss = loss::cross_entropy(&forward(&x)?, &y)?;
            opt.backward_step(&loss)?;
            sum += loss.to_scalar::<f64>()?;
        }
        training += start.elapsed().as_secs_f64();
        let predicted = forward(&test_x)?.argmax(1)?;
        let right = predicted.eq(&test_y)?.to_dtype(DType::F64)?.sum_all()?;
        let accuracy = 100.0 * right.to_scalar::<f64>()? / (n - TRAIN) as f64;
        let batches = TRAIN.div_ceil(BATCH);
        println!(
            "epoch {epoch} loss {:.6}, accuracy {accuracy:.2}%",
            sum / batches as f64
        );
    }
    let per_sample = 1e6 * training / (epochs * TRAIN) as f64;
    println!("candle f64: training {training:.1} s, {per_sample:.2} µs per sample-step");
    Ok(())
}
