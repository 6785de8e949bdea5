//! Data: mini-batches reshuffled every epoch from a seed, one-hot labels, features
//! standardised with the training set's numbers.

use micrograd::data::{one_hot, DataLoader, Dataset, Standardizer};
use micrograd::prelude::*;
use micrograd::tape::Tape;
use rand::{rngs::StdRng, SeedableRng};

/// Ten samples whose label is their index.
fn ten() -> Dataset {
    Dataset {
        inputs: (0..10).map(|i| vec![f64::from(i), -f64::from(i)]).collect(),
        labels: (0..10).map(f64::from).collect(),
    }
}

/// The labels of each batch of the next `epochs` epochs of a loader of `data`.
fn orders(data: &Dataset, seed: u64, epochs: usize) -> Vec<Vec<Vec<f64>>> {
    let mut loader = DataLoader::new(data, 4, StdRng::seed_from_u64(seed)).unwrap();
    (0..epochs)
        .map(|_| loader.epoch().map(|b| b.labels).collect())
        .collect()
}

#[test]
fn every_epoch_holds_every_sample_once_in_a_new_order() {
    let data = ten();
    let epochs = orders(&data, 3, 3);
    for batches in &epochs {
        let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![4, 4, 2]);
        let mut seen: Vec<f64> = batches.concat();
        seen.sort_by(f64::total_cmp);
        assert_eq!(seen, data.labels);
    }
    assert_ne!(epochs[0], epochs[1]);
    assert_ne!(epochs[1], epochs[2]);
}

#[test]
fn the_same_seed_gives_the_same_batches_and_rows_stay_with_their_labels() {
    let data = ten();
    assert_eq!(orders(&data, 3, 4), orders(&data, 3, 4));
    assert_ne!(orders(&data, 3, 1), orders(&data, 4, 1));
    let mut loader = DataLoader::new(&data, 3, StdRng::seed_from_u64(1)).unwrap();
    for batch in loader.epoch() {
        for (x, &y) in batch.inputs.iter().zip(&batch.labels) {
            assert_eq!(x, &[y, -y]);
        }
    }
}

#[test]
fn an_epoch_is_the_order_dataset_shuffle_gives_with_the_same_generator() {
    // The loader shuffles the previous epoch's order, as shuffling the data set again.
    let mut shuffled = ten();
    let mut rng = StdRng::seed_from_u64(9);
    let data = ten();
    let mut loader = DataLoader::new(&data, 10, StdRng::seed_from_u64(9)).unwrap();
    for _ in 0..3 {
        shuffled.shuffle(&mut rng).unwrap();
        let batch = loader.epoch().next().unwrap();
        assert_eq!(batch.labels, shuffled.labels);
    }
}

#[test]
fn a_loader_refuses_a_batch_size_of_0_and_an_empty_data_set() {
    let rng = || StdRng::seed_from_u64(0);
    assert!(matches!(
        DataLoader::new(&ten(), 0, rng()),
        Err(Error::HyperParameter {
            name: "batch_size",
            ..
        })
    ));
    assert!(DataLoader::new(&Dataset::default(), 4, rng()).is_err());
}

/// The parameters after two epochs of a `Training` over a loader's batches, the
/// target one-hot appended to each row, on `threads` threads.
fn trained(threads: usize) -> Vec<f64> {
    let mut data = ten();
    data.labels
        .iter_mut()
        .for_each(|y| *y = f64::from((*y as u8).is_multiple_of(2)));
    data.append_one_hot(2).unwrap();
    let model = MLP::new(2, &[4, 2], &mut StdRng::seed_from_u64(2));
    let leaves: Vec<Value> = (0..4).map(|_| Value::new(0.0).no_grad()).collect();
    let logits = model.forward(&leaves[..2]).unwrap();
    let loss = (&logits[0] - &leaves[2]).powi(2) + (&logits[1] - &leaves[3]).powi(2);
    let mut tape = Tape::compile(&loss).unwrap();
    let inputs = tape.inputs(&leaves).unwrap();
    let mut opt = Sgd::new(model.parameters(), 0.01).unwrap();
    let mut training = tape.train(&mut opt, threads).unwrap();
    let mut loader = DataLoader::new(&data, 4, StdRng::seed_from_u64(5)).unwrap();
    for _ in 0..2 {
        for batch in loader.epoch() {
            training.step(&inputs, &batch.inputs).unwrap();
        }
    }
    training.finish();
    model.params()
}

#[test]
fn training_on_a_loaders_batches_gives_the_same_bits_on_1_and_2_threads() {
    assert_eq!(trained(1), trained(2));
}

// torch.nn.functional.one_hot(torch.tensor([0, 2]), num_classes=3)
#[test]
fn one_hot_puts_a_1_at_the_class_and_refuses_what_is_not_a_class() {
    assert_eq!(one_hot(0.0, 3).unwrap(), vec![1.0, 0.0, 0.0]);
    assert_eq!(one_hot(2.0, 3).unwrap(), vec![0.0, 0.0, 1.0]);
    for bad in [3.0, -1.0, 0.5, f64::NAN] {
        let err = one_hot(bad, 3).unwrap_err();
        assert!(err.to_string().contains(&format!("label {bad}")), "{err}");
    }
    let mut data = ten();
    let err = data.append_one_hot(5).unwrap_err();
    assert!(err.to_string().contains("sample 5: label 5"), "{err}");
    assert_eq!(data, ten()); // nothing changed
}

#[test]
fn a_class_count_too_large_to_hold_is_an_error_not_an_abort() {
    // The label is looked at before any row is made: -1 is no class of any count.
    let err = one_hot(-1.0, usize::MAX).unwrap_err();
    assert!(err.to_string().contains("label -1"), "{err}");
    for classes in [usize::MAX, 1 << 60] {
        let err = one_hot(0.0, classes).unwrap_err();
        assert!(
            err.to_string().contains(&format!("classes = {classes}")),
            "{err}"
        );
        let mut data = ten();
        assert!(data.append_one_hot(classes).is_err());
        assert_eq!(data, ten()); // nothing changed
    }
}

// from sklearn.preprocessing import StandardScaler
// s = StandardScaler().fit(train); s.mean_, s.scale_, s.transform(test)
#[test]
fn standardising_uses_the_training_sets_mean_and_population_deviation() {
    let train = Dataset {
        inputs: vec![
            vec![1.0, 7.0],
            vec![2.0, 7.0],
            vec![3.0, 7.0],
            vec![4.0, 7.0],
        ],
        labels: vec![0.0; 4],
    };
    let scaler = Standardizer::fit(&train).unwrap();
    // mean_ = [2.5, 7]; var_ = mean of squared deviations = (2.25+0.25+0.25+2.25)/4
    assert_eq!(scaler.mean(), &[2.5, 7.0]);
    // scale_ = sqrt(var_), and 1 where var_ is 0
    assert_eq!(scaler.scale(), &[1.25f64.sqrt(), 1.0]);
    let test = [6.5, 9.0];
    let expected = [(6.5 - 2.5) / 1.25f64.sqrt(), 2.0];
    assert_eq!(scaler.transform(&test).unwrap(), expected);
    // The training set itself comes out with mean 0 and deviation 1.
    let mut standardised = train.clone();
    scaler.apply(&mut standardised).unwrap();
    let column: Vec<f64> = standardised.inputs.iter().map(|r| r[0]).collect();
    let mean = column.iter().sum::<f64>() / 4.0;
    let var = column.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 4.0;
    assert!(
        mean.abs() < 1e-15 && (var - 1.0).abs() < 1e-15,
        "{mean} {var}"
    );
    assert!(matches!(
        scaler.transform(&[1.0]),
        Err(Error::InputWidth {
            expected: 2,
            got: 1
        })
    ));
}

// [1e-200, 3e-200]: mean 2e-200, each 1e-200 from it, so the deviation is 1e-200 (the
// squares, 1e-400, round to 0: numpy.std gives 0.0 and scikit-learn then scales by 1).
#[test]
fn features_near_1e_minus_200_are_scaled_by_their_deviation_not_by_one() {
    let train = Dataset {
        inputs: vec![vec![1e-200], vec![3e-200]],
        labels: vec![0.0; 2],
    };
    let scaler = Standardizer::fit(&train).unwrap();
    assert!(
        (scaler.scale()[0] / 1e-200 - 1.0).abs() < 1e-15,
        "{scaler:?}"
    );
    let row = scaler.transform(&[3e-200]).unwrap();
    assert!((row[0] - 1.0).abs() < 1e-15, "{row:?}");
}

#[test]
fn features_near_f64_max_standardise_to_finite_numbers_or_an_error() {
    // The sum of squares (2e400) is beyond f64; the deviation, 1e200·sqrt(2/3), is not.
    let mut train = Dataset {
        inputs: vec![vec![1e200], vec![-1e200], vec![3.0]],
        labels: vec![0.0; 3],
    };
    let scaler = Standardizer::fit(&train).unwrap();
    assert_eq!(scaler.mean(), &[1.0]);
    let expected = 1e200 * (2.0f64 / 3.0).sqrt();
    assert!(
        (scaler.scale()[0] / expected - 1.0).abs() < 1e-15,
        "{scaler:?}"
    );
    scaler.apply(&mut train).unwrap();
    assert!(
        (train.inputs[0][0] - 1.5f64.sqrt()).abs() < 1e-15,
        "{train:?}"
    );
    // The sum itself beyond f64, and `x - mean` too: each comes out in range.
    let big = Dataset {
        inputs: vec![vec![1.7e308], vec![1.7e308], vec![-1.7e308]],
        labels: vec![0.0; 3],
    };
    let scaler = Standardizer::fit(&big).unwrap();
    let row = scaler.transform(&[-1.7e308]).unwrap();
    assert!((row[0] + 2f64.sqrt()).abs() < 1e-15, "{row:?}");
    // A test value standardised beyond f64 is an error naming it; nothing is changed.
    let mut test = Dataset {
        inputs: vec![vec![0.0], vec![f64::MAX]],
        labels: vec![0.0; 2],
    };
    let tiny = Standardizer::fit(&Dataset {
        inputs: vec![vec![0.0], vec![1e-100]],
        labels: vec![0.0; 2],
    })
    .unwrap();
    let err = tiny.apply(&mut test).unwrap_err().to_string();
    assert!(
        err.contains("sample 1") && err.contains("feature 0"),
        "{err}"
    );
    assert_eq!(test.inputs, vec![vec![0.0], vec![f64::MAX]]);
}
