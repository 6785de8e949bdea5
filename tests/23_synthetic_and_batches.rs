//! Lesson 23: made-up data sets, shuffling, hold-out splits and mini-batches.

use micrograd::data::{make_circles, make_moons, xor, Dataset, MAX_SAMPLES};
use micrograd::Error;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

// X, y = make_moons(n_samples=100, noise=0.1); y = y*2 - 1
#[test]
fn make_moons_without_noise_puts_points_on_the_two_half_circles() {
    let data = make_moons(9, 0.0, &mut rng(1)).unwrap();
    assert_eq!((data.len(), data.width()), (9, 2));
    for (x, &y) in data.inputs.iter().zip(&data.labels) {
        // Upper moon: (cos t, sin t). Lower moon: (1 - cos t, 0.5 - sin t), t in [0, pi].
        let (cx, cy) = if y == -1.0 { (0.0, 0.0) } else { (1.0, 0.5) };
        assert!(((x[0] - cx).hypot(x[1] - cy) - 1.0).abs() < 1e-12, "{x:?}");
        assert!(if y == -1.0 { x[1] >= 0.0 } else { x[1] <= 0.5 }, "{x:?}");
    }
    // 9 / 2 = 4 points on the upper moon (label -1), 5 on the lower.
    assert_eq!(data.labels.iter().filter(|&&y| y == -1.0).count(), 4);
}

#[test]
fn make_moons_noise_has_the_requested_spread() {
    let noise = 0.1;
    let noisy = make_moons(2000, noise, &mut rng(2)).unwrap();
    // A point's distance from its moon's circle is about the radial part of its 2-D
    // N(0, 0.1^2) noise, whose RMS is `noise`; with 2000 samples the estimate is within
    // about 2% (standard error of an RMS, 1/sqrt(2 * 2000)), so 0.02 is a wide margin.
    let rms = (noisy
        .inputs
        .iter()
        .zip(&noisy.labels)
        .map(|(x, &y)| {
            let (cx, cy) = if y == -1.0 { (0.0, 0.0) } else { (1.0, 0.5) };
            ((x[0] - cx).hypot(x[1] - cy) - 1.0).powi(2)
        })
        .sum::<f64>()
        / 2000.0)
        .sqrt();
    assert!((rms - noise).abs() < 0.02, "rms distance {rms}");
}

#[test]
fn the_same_seed_gives_the_same_points() {
    let a = make_moons(50, 0.1, &mut rng(3)).unwrap();
    assert_eq!(a, make_moons(50, 0.1, &mut rng(3)).unwrap());
    assert_ne!(a, make_moons(50, 0.1, &mut rng(4)).unwrap());
}

#[test]
fn make_circles_puts_the_inner_class_at_radius_factor() {
    let data = make_circles(7, 0.0, 0.3, &mut rng(5)).unwrap();
    for (x, &y) in data.inputs.iter().zip(&data.labels) {
        let radius = if y == -1.0 { 1.0 } else { 0.3 };
        assert!((x[0].hypot(x[1]) - radius).abs() < 1e-12, "{x:?}");
    }
    assert_eq!(data.labels.iter().filter(|&&y| y == 1.0).count(), 4);
}

#[test]
fn bad_generator_arguments_are_errors() {
    let r = &mut rng(6);
    assert!(matches!(make_moons(1, 0.1, r), Err(Error::InvalidInput(_))));
    for noise in [-0.1, f64::NAN, f64::INFINITY] {
        let err = make_moons(10, noise, r).unwrap_err();
        assert!(
            matches!(err, Error::HyperParameter { name: "noise", .. }),
            "{err}"
        );
    }
    for factor in [0.0, 1.0, -0.5, f64::NAN] {
        let err = make_circles(10, 0.0, factor, r).unwrap_err();
        assert!(
            matches!(err, Error::HyperParameter { name: "factor", .. }),
            "{err}"
        );
    }
}

#[test]
fn a_sample_count_beyond_max_samples_is_an_error_not_an_out_of_memory_kill() {
    let r = &mut rng(7);
    for n in [MAX_SAMPLES + 1, usize::MAX] {
        for result in [make_moons(n, 0.1, r), make_circles(n, 0.1, 0.5, r)] {
            let message = match result {
                Err(Error::InvalidInput(message)) => message,
                other => panic!("expected InvalidInput, got {other:?}"),
            };
            assert!(message.contains(&n.to_string()), "{message}");
            assert!(message.contains("MAX_SAMPLES"), "{message}");
        }
    }
}

// X, y = make_moons(n_samples=100, noise=1e308)
#[test]
fn noise_above_1e300_is_an_error_not_infinite_points() {
    let r = &mut rng(8);
    for result in [make_moons(100, 1e308, r), make_circles(100, 1e308, 0.5, r)] {
        let err = result.unwrap_err();
        assert!(
            matches!(err, Error::HyperParameter { name: "noise", .. }),
            "{err}"
        );
        assert!(err.to_string().contains("[0, 1e300]"), "{err}");
    }
    let loudest = make_moons(100, 1e300, r).unwrap();
    assert!(loudest.inputs.iter().flatten().all(|x| x.is_finite()));
}

#[test]
fn an_out_of_range_value_is_shown_short_and_exact_not_in_300_digits() {
    for (noise, shown) in [(1e308, "noise = 1e308 is"), (-1e-300, "noise = -1e-300 is")] {
        let err = make_moons(100, noise, &mut rng(9)).unwrap_err().to_string();
        assert!(err.starts_with(shown) && err.len() < 200, "{err}");
    }
}

#[test]
fn xor_labels_differ_where_the_inputs_differ() {
    let data = xor();
    for (x, &y) in data.inputs.iter().zip(&data.labels) {
        assert_eq!(y, if x[0] != x[1] { 1.0 } else { -1.0 });
    }
}

/// `n` samples whose label is their index, so order is easy to follow.
fn numbered(n: usize) -> Dataset {
    Dataset {
        inputs: (0..n).map(|i| vec![i as f64, -(i as f64)]).collect(),
        labels: (0..n).map(|i| i as f64).collect(),
    }
}

#[test]
fn shuffle_permutes_samples_and_keeps_each_input_with_its_label() {
    let mut data = numbered(10);
    data.shuffle(&mut rng(7)).unwrap();
    assert_ne!(data, numbered(10), "seed 7 happens to keep this order");
    for (x, &y) in data.inputs.iter().zip(&data.labels) {
        assert_eq!(x, &vec![y, -y]);
    }
    let mut sorted = data.labels.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(sorted, numbered(10).labels);
}

#[test]
fn split_off_last_takes_the_tail_and_refuses_more_than_there_is() {
    let mut data = numbered(10);
    let test = data.split_off_last(3).unwrap();
    assert_eq!(test.labels, vec![7.0, 8.0, 9.0]);
    assert_eq!(data.len(), 7);
    assert!(matches!(
        data.split_off_last(8),
        Err(Error::InvalidInput(_))
    ));
    assert_eq!(data.len(), 7, "a failed split leaves the data as it was");
}

#[test]
fn batches_cover_every_sample_once_with_a_smaller_last_batch() {
    let data = numbered(10);
    let batches: Vec<_> = data.batches(4).unwrap().collect();
    let sizes: Vec<usize> = batches
        .iter()
        .map(|(x, y)| (x.len() + y.len()) / 2)
        .collect();
    assert_eq!(sizes, vec![4, 4, 2]);
    assert_eq!(batches[2].1, &[8.0, 9.0]);
    assert_eq!(batches[2].0[1], vec![9.0, -9.0]);
}

#[test]
fn a_zero_batch_size_or_unequal_lengths_are_errors() {
    let data = numbered(3);
    assert!(matches!(
        data.batches(0),
        Err(Error::HyperParameter {
            name: "batch_size",
            ..
        })
    ));
    let mut broken = numbered(3);
    broken.labels.pop();
    assert!(matches!(broken.batches(2), Err(Error::InvalidInput(_))));
}

// An empty data set has no batches: a training loop over them would do nothing, and
// its mean loss (a sum over no batches divided by 0) would be NaN. An error instead.
#[test]
fn batches_of_an_empty_data_set_are_an_error() {
    let err = Dataset::default()
        .batches(4)
        .err()
        .expect("an empty data set");
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert!(err.to_string().contains("no samples"), "{err}");
}

// Rows of different widths: the model would report InputWidth only at the first wrong
// row it meets, perhaps epochs later; batches names the first one at once.
#[test]
fn batches_name_the_first_row_of_another_width() {
    let mut data = numbered(5);
    data.inputs[3].push(0.0);
    data.inputs[4].pop();
    let err = data.batches(2).err().expect("ragged rows");
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("inputs[3] has 3 features"), "{msg}");
    assert!(msg.contains("inputs[0] has 2"), "{msg}");
}

#[test]
fn shuffle_refuses_mismatched_lengths_as_batches_does_and_changes_nothing() {
    let mut broken = numbered(3);
    broken.labels.pop();
    let before = broken.clone();
    let err = broken.shuffle(&mut rng(7)).unwrap_err();
    assert!(
        err.to_string().contains("3 input rows but 2 labels"),
        "{err}"
    );
    assert_eq!(broken, before);
}
