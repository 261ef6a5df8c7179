# SPDX-License-Identifier: MIT
include $(sort $(wildcard $(BR2_EXTERNAL_TINYPERF_PATH)/package/*/*.mk))
