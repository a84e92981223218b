<#
.SYNOPSIS
    netlint host collection for Hyper-V and Azure Local: one JSON file per
    host for `netlint import`. Read-only: it runs Get-* cmdlets and CIM
    queries only, and changes nothing on any host.

.DESCRIPTION
    Runs on Windows PowerShell 5.1 and PowerShell 7. Without parameters it
    collects the local host. -Cluster collects every node of the local
    failover cluster that is up; -ComputerName names hosts. Remote hosts
    are collected over WinRM (Invoke-Command), where the same script block
    runs on the host itself, so the Hyper-V, SMB, DCB and cluster cmdlets
    see that host. Each host's output is written as <host>.json in
    -OutputDirectory. A cmdlet that fails on a host (a feature not
    installed, Network ATC absent) is recorded under "Errors" with its
    message, and netlint treats its facts as unknown.

.EXAMPLE
    .\collect-hyperv.ps1 -Cluster -OutputDirectory C:\netlint
#>
[CmdletBinding()]
param(
    [switch]$Cluster,
    [string[]]$ComputerName = @($env:COMPUTERNAME),
    [string]$OutputDirectory = (Get-Location).Path,
    [System.Management.Automation.PSCredential]$Credential,
    [ValidateRange(4, 100)]
    [int]$Depth = 8
)

Set-StrictMode -Version 2.0
$ErrorActionPreference = 'Stop'

if ($Cluster) {
    $ComputerName = @(Get-ClusterNode | Where-Object { $_.State -eq 'Up' } | ForEach-Object { $_.Name })
}
if (-not (Test-Path -LiteralPath $OutputDirectory)) {
    New-Item -ItemType Directory -Path $OutputDirectory | Out-Null
}

$collect = {
    param([int]$Depth)
    $ErrorActionPreference = 'Stop'
    $out = [ordered]@{}
    $errors = [ordered]@{}

    function Add-Output {
        param([string]$Name, [scriptblock]$Block)
        try {
            $out[$Name] = @(& $Block)
        }
        catch {
            $errors[$Name] = $_.Exception.Message
        }
    }

    Add-Output 'Get-NetAdapter' {
        Get-NetAdapter | Select-Object Name, InterfaceDescription, ifIndex, Status, MacAddress, LinkSpeed, Speed, Virtual, MtuSize
    }
    Add-Output 'Get-NetAdapterAdvancedProperty' {
        Get-NetAdapterAdvancedProperty -RegistryKeyword '*JumboPacket', '*NetworkDirect', '*NetworkDirectTechnology', 'VlanID' -ErrorAction SilentlyContinue |
            Select-Object Name, DisplayName, DisplayValue, RegistryKeyword, RegistryValue
    }
    Add-Output 'Get-NetAdapterHardwareInfo' {
        Get-NetAdapterHardwareInfo -ErrorAction SilentlyContinue |
            Select-Object Name, SlotNumber, BusNumber, DeviceNumber, FunctionNumber, PcieLinkSpeed, PcieLinkWidth
    }
    Add-Output 'Get-NetAdapterRdma' {
        Get-NetAdapterRdma | Select-Object Name, InterfaceDescription, Enabled
    }
    Add-Output 'Get-VMSwitch' {
        Get-VMSwitch | Select-Object Name, SwitchType, EmbeddedTeamingEnabled, NetAdapterInterfaceDescription,
            NetAdapterInterfaceDescriptions, BandwidthReservationMode, DefaultFlowMinimumBandwidthWeight,
            DefaultFlowMinimumBandwidthAbsolute
    }
    Add-Output 'Get-VMSwitchTeam' {
        Get-VMSwitch | Where-Object { $_.EmbeddedTeamingEnabled } | ForEach-Object { Get-VMSwitchTeam -Name $_.Name } |
            Select-Object Name, Id, NetAdapterInterfaceDescription, TeamingMode, LoadBalancingAlgorithm
    }
    Add-Output 'Get-VMNetworkAdapter' {
        $bandwidth = @{
            Name       = 'BandwidthSetting'
            Expression = {
                if ($_.BandwidthSetting) {
                    [ordered]@{
                        MinimumBandwidthWeight   = $_.BandwidthSetting.MinimumBandwidthWeight
                        MinimumBandwidthAbsolute = $_.BandwidthSetting.MinimumBandwidthAbsolute
                        MaximumBandwidth         = $_.BandwidthSetting.MaximumBandwidth
                    }
                }
            }
        }
        $properties = @('Name', 'SwitchName', 'IsManagementOs', 'MacAddress', $bandwidth)
        Get-VMNetworkAdapter -ManagementOS | Select-Object -Property $properties
    }
    Add-Output 'Get-VMNetworkAdapterVlan' {
        $adapterName = @{ Name = 'AdapterName'; Expression = { $_.ParentAdapter.Name } }
        $properties = @($adapterName, 'OperationMode', 'AccessVlanId', 'NativeVlanId', 'AllowedVlanIdListString')
        Get-VMNetworkAdapterVlan -ManagementOS | Select-Object -Property $properties
    }
    Add-Output 'Get-VMNetworkAdapterIsolation' {
        $adapterName = @{ Name = 'AdapterName'; Expression = { $_.ParentAdapter.Name } }
        $properties = @($adapterName, 'IsolationMode', 'DefaultIsolationID', 'AllowUntaggedTraffic')
        Get-VMNetworkAdapterIsolation -ManagementOS | Select-Object -Property $properties
    }
    Add-Output 'Get-VMNetworkAdapterTeamMapping' {
        $adapterName = @{ Name = 'VMNetworkAdapterName'; Expression = { $_.ParentAdapter.Name } }
        $properties = @($adapterName, 'NetAdapterName')
        Get-VMNetworkAdapterTeamMapping -ManagementOS | Select-Object -Property $properties
    }
    Add-Output 'Get-NetLbfoTeam' {
        Get-NetLbfoTeam | Select-Object Name, Members, TeamNics, TeamingMode, LoadBalancingAlgorithm, Status
    }
    Add-Output 'Get-NetLbfoTeamMember' {
        Get-NetLbfoTeamMember | Select-Object Name, Team, AdministrativeMode, OperationalStatus
    }
    Add-Output 'Get-NetQosPolicy' {
        Get-NetQosPolicy | Select-Object Name, Owner, NetworkProfile, Template, NetDirectPortMatchCondition,
            IPProtocolMatchCondition, IPDstPortMatchCondition, PriorityValue8021Action
    }
    Add-Output 'Get-NetQosFlowControl' {
        Get-NetQosFlowControl | Select-Object Name, Priority, Enabled
    }
    Add-Output 'Get-NetQosTrafficClass' {
        Get-NetQosTrafficClass | Select-Object Name, Algorithm, Priority, BandwidthPercentage
    }
    Add-Output 'Get-NetQosDcbxSetting' {
        Get-NetQosDcbxSetting | Select-Object Willing, PolicySetting
    }
    Add-Output 'Get-SmbBandwidthLimit' {
        Get-SmbBandwidthLimit | Select-Object Category, BytesPerSecond
    }
    Add-Output 'Get-VMHost' {
        Get-VMHost | Select-Object Name, VirtualMachineMigrationEnabled, VirtualMachineMigrationPerformanceOption,
            MaximumVirtualMachineMigrations, UseAnyNetworkForMigration, MaximumStorageMigrations
    }
    Add-Output 'Get-VMMigrationNetwork' {
        Get-VMMigrationNetwork | Select-Object Subnet, Priority
    }
    Add-Output 'Get-ClusterNetwork' {
        Get-ClusterNetwork | Select-Object Name, Role, Address, AddressMask, State
    }
    Add-Output 'Get-ClusterNetworkInterface' {
        $node = @{ Name = 'Node'; Expression = { [string]$_.Node } }
        $network = @{ Name = 'Network'; Expression = { [string]$_.Network } }
        $properties = @('Name', $node, $network, 'Adapter', 'State')
        Get-ClusterNetworkInterface | Select-Object -Property $properties
    }
    Add-Output 'Get-NetIntent' {
        $override = @{
            Name       = 'AdapterAdvancedParametersOverride'
            Expression = { [ordered]@{ JumboPacket = $_.AdapterAdvancedParametersOverride.JumboPacket } }
        }
        $properties = @('IntentName', 'IntentType', 'NetAdapterNamesAsList', 'NetAdapterNameCsv', 'IsComputeIntentSet',
            'IsStorageIntentSet', 'IsManagementIntentSet', $override)
        Get-NetIntent | Select-Object -Property $properties
    }
    Add-Output 'Win32_ComputerSystem' {
        Get-CimInstance -ClassName Win32_ComputerSystem | Select-Object Name, TotalPhysicalMemory, NumberOfLogicalProcessors
    }
    Add-Output 'Win32_OperatingSystem' {
        Get-CimInstance -ClassName Win32_OperatingSystem | Select-Object Caption, Version, BuildNumber
    }
    Add-Output 'Win32_PowerPlan' {
        Get-CimInstance -Namespace 'root\cimv2\power' -ClassName Win32_PowerPlan | Select-Object ElementName, InstanceID, IsActive
    }

    $collection = [ordered]@{
        NetlintCollection = 1
        ComputerName      = $env:COMPUTERNAME
        CollectedAt       = (Get-Date).ToUniversalTime().ToString('o')
        PSVersion         = $PSVersionTable.PSVersion.ToString()
        Cmdlets           = $out
        Errors            = $errors
    }
    $collection | ConvertTo-Json -Depth $Depth
}

foreach ($node in $ComputerName) {
    $local = $node -eq '.' -or $node -eq 'localhost' -or $node -eq $env:COMPUTERNAME
    if ($local) {
        $json = & $collect -Depth $Depth
    }
    else {
        $remote = @{ ComputerName = $node; ScriptBlock = $collect; ArgumentList = @($Depth) }
        if ($Credential) {
            $remote['Credential'] = $Credential
        }
        $json = Invoke-Command @remote
    }
    $path = Join-Path -Path $OutputDirectory -ChildPath ($node + '.json')
    $json | Out-File -FilePath $path -Encoding utf8
    Write-Host "netlint: wrote $path"
}
