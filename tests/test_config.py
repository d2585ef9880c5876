import copy
from pathlib import Path

import pytest

from harness.config import ConfigError, load_config, validate_config
from harness.jobs import job_params, parse_job, result_jobs
from harness.results.common.declare.grid_profile import grid_cells

MINIMAL = {"profile": "t", "results": {"table_3_2": {"datasets": ["swiss_roll"],
                                                   "methods": ["pca", "isomap"]}}}


def test_quick_profile_validates_and_expands_all(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    config = load_config("config/quick.yaml")
    t = config["results"]["table_3_2"]
    assert {"pca", "isomap", "lle", "hlle", "laplacian_eigenmaps"} <= set(t["methods"])
    assert t["eval_neighbors"] == 15
    assert config["blas_threads"] == 1


def test_all_methods_of_the_task_in_the_thesis_row_order_less_the_excluded(repo_root,
                                                                            monkeypatch):
    monkeypatch.chdir(repo_root)  # the reference CSVs give the thesis' row order
    from harness import registry

    every = {"profile": "t", "results": {"table_3_2": {"datasets": ["swiss_roll"],
                                                      "methods": "all"}}}
    methods = validate_config(every)["results"]["table_3_2"]["methods"]
    assert set(methods) == set(registry.methods("embedding"))
    assert methods[:2] == ["mvu", "var_mvu_cg_lle"]  # the thesis prints MVU first
    assert methods.index("pca") < methods.index("isomap") < methods.index("lle")
    every["results"]["table_3_2"]["exclude_methods"] = ["mvu", "hlle"]
    left = validate_config(every)["results"]["table_3_2"]["methods"]
    assert left == [m for m in methods if m not in ("mvu", "hlle")]
    every["results"]["table_3_2"]["exclude_methods"] = ["bogus"]
    with pytest.raises(ConfigError, match=r"exclude_methods: unknown method 'bogus'"):
        validate_config(every)
    every["results"]["table_3_2"]["exclude_methods"] = list(methods)
    with pytest.raises(ConfigError, match="exclude_methods leaves no method"):
        validate_config(every)
    listed = copy.deepcopy(MINIMAL)  # a list given by hand keeps its order
    assert validate_config(listed)["results"]["table_3_2"]["methods"] == ["pca", "isomap"]


def test_defaults_are_filled():
    config = validate_config(MINIMAL)
    t = config["results"]["table_3_2"]
    assert t["n_runs"] == 1 and t["neighbors_from"] == "text" and t["n_neighbors"] == {}
    assert config["seed"] == 0 and config["results_dir"] == "results"


@pytest.mark.parametrize("kind", ["methods", "datasets"])
def test_unknown_name_is_rejected_with_valid_list(kind):
    bad = copy.deepcopy(MINIMAL)
    bad["results"]["table_3_2"][kind] = ["pca" if kind == "methods" else "swiss_roll", "bogus"]
    singular = kind[:-1]
    with pytest.raises(ConfigError, match=rf"unknown {singular} 'bogus'; valid {singular}s: .*"):
        validate_config(bad)


def test_the_profile_schema_is_a_valid_json_schema():
    """Checked here once, not in every job's validation (harness.config)."""
    import jsonschema

    from harness.config import profile_schema

    schema = profile_schema()
    jsonschema.validators.validator_for(schema).check_schema(schema)
    broken = copy.deepcopy(schema)
    broken["properties"]["seed"] = {"type": "no such type"}
    with pytest.raises(jsonschema.SchemaError):
        jsonschema.validators.validator_for(broken).check_schema(broken)


def test_schema_errors_name_the_entry():
    bad = copy.deepcopy(MINIMAL)
    bad["results"]["table_3_2"]["n_runs"] = 0
    with pytest.raises(ConfigError, match="results/table_3_2/n_runs"):
        validate_config(bad)
    bad = copy.deepcopy(MINIMAL)
    bad["results"]["table_9_9"] = {}
    with pytest.raises(ConfigError, match="table_9_9"):
        validate_config(bad)


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.yaml")


def test_cell_ids_round_trip():
    job = parse_job("table_3_2/swiss_roll/isomap")
    assert (job.result, job.key, job.id) == ("table_3_2", "swiss_roll/isomap",
                                             "table_3_2/swiss_roll/isomap")
    config = validate_config(MINIMAL)
    assert job_params(config, job)["method_params"]["n_neighbors"] == 15
    with pytest.raises(ConfigError, match="DATASET/METHOD"):
        job_params(config, parse_job("table_3_2/swiss_roll"))
    with pytest.raises(KeyError, match="unknown method 'bogus'"):
        job_params(config, parse_job("table_3_2/swiss_roll/bogus"))
    with pytest.raises(ConfigError, match="RESULT/KEY"):
        parse_job("table_3_2")
    with pytest.raises(KeyError, match="unknown thesis result 't9'; valid results: .*table_3_2"):
        parse_job("t9/swiss_roll/isomap")


def test_cells_are_datasets_times_methods():
    config = validate_config(MINIMAL)
    ids = [job.id for job in result_jobs(config, "table_3_2")]
    assert ids == ["table_3_2/swiss_roll/pca", "table_3_2/swiss_roll/isomap"]
    cells = grid_cells(config, "table_3_2")
    assert [(c.dataset, c.method, c.solver) for c in cells] == [
        ("swiss_roll", "pca", None), ("swiss_roll", "isomap", None)]
    assert [c.id for c in cells] == ids


def test_old_profile_layout_is_refused_naming_the_new_one():
    old = {"profile": "t", "tables": MINIMAL["results"]}
    with pytest.raises(ConfigError, match=r"entry tables: .* one section, results:"):
        validate_config(old)
    with pytest.raises(ConfigError, match="results"):
        validate_config({"profile": "t"})


def test_neighbourhood_size_rules(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    conf = copy.deepcopy(MINIMAL)
    conf["results"]["table_3_2"]["datasets"] = ["teapot", "frey", "teapot_standin"]
    text = validate_config(conf)
    conf["results"]["table_3_2"]["neighbors_from"] = "table"
    table = validate_config(conf)

    def k_and_r(config, cell):
        p = job_params(config, parse_job(cell))["method_params"]
        return p.get("n_neighbors"), p["n_components"]

    assert k_and_r(text, "table_3_2/teapot/isomap") == (15, 2)
    assert k_and_r(table, "table_3_2/teapot/isomap") == (5, 2)
    assert k_and_r(table, "table_3_2/frey/isomap") == (20, 3)
    # a stand-in takes the values of the data set it stands in for
    assert k_and_r(table, "table_3_2/teapot_standin/isomap") == (5, 2)
    # PCA takes no neighbourhood
    assert k_and_r(text, "table_3_2/frey/pca") == (None, 3)
    # explicit per-data-set values and per-method arguments win
    conf["results"]["table_3_2"]["n_neighbors"] = {"frey": 12}
    conf["methods"] = {"isomap": {"path_method": "FW"}}
    p = job_params(validate_config(conf), parse_job("table_3_2/frey/isomap"))
    assert p["method_params"] == {"n_components": 3, "n_neighbors": 12, "path_method": "FW"}
    assert p["n_neighbors_source"] == "profile"


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_shipped_profiles_validate(repo_root, monkeypatch, profile):
    monkeypatch.chdir(repo_root)
    config = load_config(f"config/{profile}.yaml")
    assert config["profile"] == profile
    cells = grid_cells(config, "table_3_2")
    assert {c.dataset for c in cells} >= {"olivetti", "teapot", "swiss_roll", "frey"}


def test_workdir_relative_sources(tmp_path, monkeypatch):
    """Source inputs under the working directory are recorded relative to it (moving
    the checkout does not change them); others stay absolute."""
    from harness.workflow import workdir_relative

    (tmp_path / "harness" / "methods").mkdir(parents=True)
    inside = tmp_path / "harness" / "methods" / "pca.py"
    inside.write_text("")
    monkeypatch.chdir(tmp_path)
    outside = Path(__file__).resolve()
    assert workdir_relative([inside, str(outside)]) == ["harness/methods/pca.py", str(outside)]


def test_a_key_given_twice_is_refused_naming_both_lines(repo_root, tmp_path):
    """Plain YAML keeps the last of two equal keys; a profile that says
    ``exclude_methods`` twice would silently lose the first list."""
    text = (repo_root / "config" / "quick.yaml").read_text()
    twice = text.replace("    n_runs: 1\n", "    n_runs: 1\n    exclude_methods: [mve]\n", 1)
    assert twice != text
    path = tmp_path / "twice.yaml"
    path.write_text(twice)
    with pytest.raises(ConfigError, match=r"twice.yaml: key 'exclude_methods' appears twice "
                                          r"in one mapping \(lines \d+ and \d+\)"):
        load_config(path)
    for name in ("quick.yaml", "full.yaml"):
        load_config(repo_root / "config" / name)  # the shipped profiles have none


@pytest.mark.parametrize("profile", ["config/quick.yaml", "config/full.yaml"])
def test_real_data_mvu_budgets_come_from_the_frey_measurement(repo_root, monkeypatch,
                                                              profile):
    """frey's MVU solve at the thesis' size took 401 CPU-s (n = 1965, k = 5): its
    solver limit is ~2x that in Table 3.2, and Fig. 3.22's point budget gives the
    solver 90% of 900; the other data sets keep the blanket values."""
    monkeypatch.chdir(repo_root)
    config = load_config(profile)
    frey = job_params(config, parse_job("table_3_2/frey/mvu/native"))
    assert frey["method_params"]["time_limit"] == 800
    assert frey["method_params"]["connect_components"] == "thesis"
    swiss = job_params(config, parse_job("table_3_2/swiss_roll/mvu/native"))
    assert swiss["method_params"].get("time_limit", 600) != 800
    fig = job_params(config, parse_job("fig_3_22/frey"))
    assert fig["time_limit_seconds"] == 900 and fig["method_params"]["time_limit"] == 810
    for variant in ("max_trace", "min_trace"):
        assert job_params(config, parse_job(f"fig_3_24/frey/{variant}"))[
            "time_limit_seconds"] == 900
    olivetti = job_params(config, parse_job("fig_3_22/olivetti"))
    assert olivetti["method_params"]["connect_components"] == "thesis"


def test_time_limit_by_dataset_overrides_the_point_budget(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    config = copy.deepcopy(load_config("config/quick.yaml"))
    config["results"]["fig_3_24"]["time_limit_by_dataset"] = {"frey": 1000}
    config["results"]["table_3_2"]["time_limit_by_dataset"] = {"frey": 1200}
    config = validate_config(config)
    assert job_params(config, parse_job("fig_3_24/frey/max_trace"))["time_limit_seconds"] == 1000
    teapot = job_params(config, parse_job("fig_3_24/teapot/max_trace"))
    assert teapot["time_limit_seconds"] == config["results"]["fig_3_24"]["time_limit_seconds"]
    assert job_params(config, parse_job("table_3_2/frey/pca"))["time_limit_seconds"] == 1200
    assert job_params(config, parse_job("table_3_2/olivetti/pca"))["time_limit_seconds"] == 900
