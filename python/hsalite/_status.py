"""hsa_status_t values, their names, and the one exception class.

The numbers are the HSA specification's and ROCr's (include/hsa/hsa.h,
hsa_ext_amd.h); the sentence comes from the loaded library's
hsa_status_string, so it is the runtime's own wording on hsalite and on
ROCr alike.
"""

STATUS_NAMES = {
    0x0: "HSA_STATUS_SUCCESS",
    0x1: "HSA_STATUS_INFO_BREAK",
    40: "HSA_STATUS_ERROR_INVALID_MEMORY_POOL",
    41: "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION",
    42: "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION",
    43: "HSA_STATUS_ERROR_MEMORY_FAULT",
    44: "HSA_STATUS_CU_MASK_REDUCED",
    45: "HSA_STATUS_ERROR_OUT_OF_REGISTERS",
    46: "HSA_STATUS_ERROR_RESOURCE_BUSY",
    47: "HSA_STATUS_ERROR_NOT_SUPPORTED",
    0x1000: "HSA_STATUS_ERROR",
    0x1001: "HSA_STATUS_ERROR_INVALID_ARGUMENT",
    0x1002: "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION",
    0x1003: "HSA_STATUS_ERROR_INVALID_ALLOCATION",
    0x1004: "HSA_STATUS_ERROR_INVALID_AGENT",
    0x1005: "HSA_STATUS_ERROR_INVALID_REGION",
    0x1006: "HSA_STATUS_ERROR_INVALID_SIGNAL",
    0x1007: "HSA_STATUS_ERROR_INVALID_QUEUE",
    0x1008: "HSA_STATUS_ERROR_OUT_OF_RESOURCES",
    0x1009: "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT",
    0x100A: "HSA_STATUS_ERROR_RESOURCE_FREE",
    0x100B: "HSA_STATUS_ERROR_NOT_INITIALIZED",
    0x100C: "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW",
    0x100D: "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS",
    0x100E: "HSA_STATUS_ERROR_INVALID_INDEX",
    0x100F: "HSA_STATUS_ERROR_INVALID_ISA",
    0x1010: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT",
    0x1011: "HSA_STATUS_ERROR_INVALID_EXECUTABLE",
    0x1012: "HSA_STATUS_ERROR_FROZEN_EXECUTABLE",
    0x1013: "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME",
    0x1014: "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED",
    0x1015: "HSA_STATUS_ERROR_VARIABLE_UNDEFINED",
    0x1016: "HSA_STATUS_ERROR_EXCEPTION",
    0x1017: "HSA_STATUS_ERROR_INVALID_ISA_NAME",
    0x1018: "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL",
    0x1019: "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL",
    0x1020: "HSA_STATUS_ERROR_INVALID_FILE",
    0x1021: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER",
    0x1022: "HSA_STATUS_ERROR_INVALID_CACHE",
    0x1023: "HSA_STATUS_ERROR_INVALID_WAVEFRONT",
    0x1024: "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP",
    0x1025: "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE",
    0x1026: "HSA_STATUS_ERROR_FATAL",
}
STATUS_VALUES = {name: value for value, name in STATUS_NAMES.items()}

# Filled in by _lib once the library is loaded: status -> sentence.
_describe = None


def status_name(status):
    return STATUS_NAMES.get(status, "HSA_STATUS_0x%x" % status)


def status_string(status):
    if _describe is None:
        return ""
    return _describe(status)


class HSAError(Exception):
    """An hsa_status_t other than success, from a call or from the GPU.

    Attributes: ``status`` (the number), ``name`` (``HSA_STATUS_ERROR_...``),
    ``message`` (the runtime's hsa_status_string), ``call`` (the HSA function
    or the event that produced it, e.g. ``hsa_queue_create`` or
    ``queue error``), ``detail`` (extra context, may be empty).
    """

    def __init__(self, status, call="", detail=""):
        self.status = int(status)
        self.name = status_name(self.status)
        self.message = status_string(self.status)
        self.call = call
        self.detail = detail
        text = "%s: %s" % (call, self.name) if call else self.name
        if self.message:
            text += " (%s)" % self.message
        if detail:
            text += ": " + detail
        super().__init__(text)


def check(status, call, detail=""):
    if status != 0:
        raise HSAError(status, call, detail)
