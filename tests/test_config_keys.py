"""Every key of every map of a profile's result sections names something (issue 53: a
misspelt data-set key was silently ignored and the run was wrong)."""

from __future__ import annotations

import copy

import pytest

from harness.config import load_config, profile_schema, validate_config
from harness.config_keys import KEY_KINDS, map_properties
from harness.errors import ConfigError
from harness.plugin_args import check_plugin_args

QUICK = "config/quick.yaml"


@pytest.fixture
def quick(repo_root):
    import yaml

    return yaml.safe_load((repo_root / QUICK).read_text())


def test_every_map_of_every_result_section_declares_what_its_keys_name():
    schema = profile_schema()
    sections = schema["properties"]["results"]["properties"]
    maps = [(name, prop, node) for name, section in sections.items()
            for prop, node in map_properties(section, schema["$defs"])]
    assert len(maps) > 40  # the tables' and figures' per-data-set maps among them
    undeclared = [f"{name}.{prop}" for name, prop, node in maps if "x-keys" not in node]
    assert undeclared == []
    kinds = {kind for _, _, node in maps for kind in node["x-keys"]}
    assert kinds <= set(KEY_KINDS)


@pytest.mark.parametrize("section, prop, value, closest", [
    ("table_2_1", "dataset_params", {"olivett": {"n_components": 200}}, "olivetti"),
    ("table_2_1", "method_params", {"wine": {"pca_lmn": {"max_iter": 5}}}, "pca_lmnn"),
    ("table_2_1", "n_neighbors", {"wnie": 3}, "wine"),
    ("table_3_2", "method_params", {"fery": {"mvu": {"time_limit": 800}}}, "frey"),
    ("fig_3_24", "time_limit_by_dataset", {"fery": 900}, "frey"),
    ("fig_3_32_35", "sigma", {"swiss_rol": 1.45}, "swiss_roll"),
])
def test_a_misspelt_key_is_refused_naming_the_closest(quick, section, prop, value, closest):
    config = copy.deepcopy(quick)
    config["results"][section][prop] = value
    with pytest.raises(ConfigError, match=rf"results\.{section}\.{prop}.*did you mean '{closest}'"):
        validate_config(config)


def test_a_misspelt_backend_is_refused(quick):
    config = copy.deepcopy(quick)
    config["results"]["solver_table"]["time_limit_per_backend"] = {"natve": 60}
    with pytest.raises(ConfigError, match="time_limit_per_backend.*'natve'"):
        validate_config(config)


def test_a_key_for_a_data_set_the_section_does_not_run_is_refused(quick):
    # a registered data set, but not one of the section's: its entry would be ignored
    config = copy.deepcopy(quick)
    config["results"]["table_2_1"]["dataset_params"] = {"olivetti": {"n_components": 200}}
    with pytest.raises(ConfigError, match=r"key 'olivetti' names no dataset of "
                                          r"results\.table_2_1\.datasets \(iris, wine, "
                                          r"balance_scale\)"):
        validate_config(config)
    config["results"]["table_2_1"]["datasets"].append("olivetti")
    validate_config(config)


def test_the_shipped_profiles_pass(repo_root):
    for name in ("quick", "full"):
        load_config(repo_root / "config" / f"{name}.yaml")


@pytest.mark.slow
def test_snakemake_names_a_bad_profile_in_one_line(tmp_path, repo_root, quick):
    import subprocess
    import sys

    import yaml

    config = copy.deepcopy(quick)
    config["results"]["table_2_1"]["dataset_params"] = {"olivett": {"n_components": 200}}
    profile = tmp_path / "bad.yaml"
    profile.write_text(yaml.safe_dump(config))
    run = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1",
                          "--configfile", str(profile)], cwd=repo_root, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode != 0
    assert ("harness: error in the profile: results.table_2_1.dataset_params: key "
            "'olivett'" in run.stderr)
    assert "did you mean 'olivetti'" in run.stderr and 'File "' not in run.stderr


@pytest.mark.parametrize("where, value, message", [
    (("datasets", "swiss_roll"), {"n_sample": 100}, r"datasets\.swiss_roll\.n_sample: the "
     r"dataset 'swiss_roll' takes no argument 'n_sample'; did you mean 'n_samples'\?"),
    (("datasets", "swiss_roll"), {"n_samples": "forty"}, r"n_samples = 'forty': must be "
     r"an integer"),
    (("datasets", "swiss_roll"), {"n_samples": -2000}, r"must be an integer of at least 1"),
    (("methods", "mvu"), {"time_limt": 60}, r"methods\.mvu\.time_limt: the method 'mvu' "
     r"takes no argument 'time_limt'; did you mean 'time_limit'\?"),
])
def test_a_bad_plugin_argument_is_refused_before_any_job(quick, where, value, message):
    # issue 53, defect 4: these passed `snakemake -n` and every job they reached crashed
    config = copy.deepcopy(quick)
    config.setdefault(where[0], {})[where[1]] = value
    with pytest.raises(ConfigError, match=message):
        check_plugin_args(validate_config(config))


def test_a_result_sections_plugin_arguments_are_checked_too(quick):
    config = copy.deepcopy(quick)
    config["results"]["table_3_2"]["method_params"] = {"swiss_roll": {"mvu": {"tim_limit": 9}}}
    with pytest.raises(ConfigError, match=r"results\.table_3_2\.method_params\.swiss_roll"
                                          r"\.mvu\.tim_limit"):
        check_plugin_args(validate_config(config))
    config["results"]["table_3_2"]["method_params"] = {"swiss_roll": {"mvu": {"time_limit": 9}}}
    check_plugin_args(validate_config(config))
