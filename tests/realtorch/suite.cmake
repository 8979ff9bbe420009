# Real PyTorch failures (Debian's python3-torch, CPU): their real output must be diagnosed right,
# from saved logs and live. Skipped (exit 77) where /usr/bin/python3 cannot import torch.
set(DENPEX_REALTORCH_SCENARIOS gloo_shape_mismatch rank_sigkill dataloader_worker_killed state_dict_keys
    autograd_inplace backward_twice rpc_lost_peer)
foreach(scenario IN LISTS DENPEX_REALTORCH_SCENARIOS)
  add_test(NAME realtorch.${scenario}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/check.py $<TARGET_FILE:denpex> ${scenario})
  set_tests_properties(realtorch.${scenario} PROPERTIES LABELS realtorch SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()

# Real 4-rank jobs: which rank started it, from per-rank files and from one interleaved stream.
set(DENPEX_REALTORCH_MULTIRANK unknown_exception sigkill hang nan_raise startup_failure two_failures
    healthy_warnings sigint stall logged_exception sigint_one size_mismatch
    dataloader_exit shard_missing)
foreach(scenario IN LISTS DENPEX_REALTORCH_MULTIRANK)
  add_test(NAME realtorch.multirank.${scenario}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/multirank.py $<TARGET_FILE:denpex> ${scenario})
  set_tests_properties(realtorch.multirank.${scenario} PROPERTIES LABELS realtorch SKIP_RETURN_CODE 77 TIMEOUT 300)
  # The real output of each, saved (tests/fixtures/logs/multirank): runs everywhere, torch or not.
  add_test(NAME logs.multirank_saved.${scenario}
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/multirank.py $<TARGET_FILE:denpex> ${scenario} --saved
            ${CMAKE_CURRENT_LIST_DIR}/../fixtures/logs/multirank)
endforeach()
